// fusescope-cli: FuseScope's pipelines from the command line (QtCore only, no display needed).
#include <QCoreApplication>

#include "cli/dispatcher.h"
#include "model/version.h"

int main(int argc, char** argv) {
    QCoreApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("fusescope-cli"));
    QCoreApplication::setApplicationVersion(QLatin1String(fusescope::model::kFuseScopeVersion));
    return fusescope::cli::dispatch(QCoreApplication::arguments());
}
