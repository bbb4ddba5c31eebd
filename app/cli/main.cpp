// fusescope-cli: FuseScope's pipelines from the command line (QtCore only, no display needed).
// The CLI drives the engine directly (runPipeline, runMeasured, runSweep, the tile sweep) on this
// one thread, which owns the backend: a terminal command has no window to keep responsive, so it
// needs no worker thread, and it includes nothing from app/worker (a test checks the includes).
#include <QCoreApplication>
#include <QStandardPaths>

#include "cli/dispatcher.h"
#include "model/version.h"
#include "platform/runtime_compiler.h"

int main(int argc, char** argv) {
    QCoreApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("fusescope-cli"));
    QCoreApplication::setApplicationVersion(QLatin1String(fusescope::model::kFuseScopeVersion));
    // Kernels compiled at run time are kept here between runs; FUSESCOPE_KERNEL_CACHE overrides
    // it (tests and cold-cache measurements).
    const QString cache = qEnvironmentVariableIsSet("FUSESCOPE_KERNEL_CACHE")
                              ? qEnvironmentVariable("FUSESCOPE_KERNEL_CACHE")
                              : QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                                    QStringLiteral("/kernels");
    fusescope::setModuleCacheDirectory(cache.toStdString());
    return fusescope::cli::dispatch(QCoreApplication::arguments());
}
