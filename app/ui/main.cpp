// `fusescope`: the desktop program. Headless paths (--screenshot, --export-charts, --help,
// --version) work without a display; a plain start without one explains itself.
#include <QApplication>
#include <QCommandLineParser>
#include <QStandardPaths>
#include <cstdio>

#include "model/version.h"
#include "ui/lesson/lesson_launch_window.h"
#include "ui/window/headless.h"
#include "ui/window/main_window.h"
#include "worker/kernel_cache.h"

namespace {

void describeApplication() {
    QCoreApplication::setOrganizationName(QStringLiteral("FuseScope"));
    QCoreApplication::setApplicationName(QStringLiteral("fusescope"));
    QCoreApplication::setApplicationVersion(
        QString::fromLatin1(fusescope::model::kFuseScopeVersion));
}

}  // namespace

int main(int argc, char** argv) {
    if (fusescope::argumentsAskForInfoOnly(argc, argv)) {
        // No GUI: help and version print and exit without any platform plugin.
        QCoreApplication app(argc, argv);
        describeApplication();
        QCommandLineParser parser;
        fusescope::addLaunchOptions(parser);
        parser.process(app);
        return 0;
    }
    const bool headless = fusescope::argumentsAskForHeadless(argc, argv);
    if (headless && fusescope::headlessNeedsOffscreenPlatform())
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (!headless && fusescope::noDisplayAvailable()) {
        std::fprintf(stderr,
                     "fusescope: no display (DISPLAY and WAYLAND_DISPLAY are unset); use "
                     "--screenshot or --export-charts here, fusescope-cli for runs, or "
                     "QT_QPA_PLATFORM=offscreen\n");
        return 2;
    }

    QApplication::setHighDpiScaleFactorRoundingPolicy(
        Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    describeApplication();
    QApplication::setDesktopFileName(QStringLiteral("fusescope"));
    QCommandLineParser parser;
    fusescope::addLaunchOptions(parser);
    parser.process(app);
    QString error;
    const fusescope::LaunchOptions options = fusescope::readLaunchOptions(parser, &error);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "fusescope: %s\n", qPrintable(error));
        return 2;
    }

    // Tile configurations compiled at run time are kept for the next start (before the worker
    // starts with the window).
    fusescope::useKernelCacheFolder(
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
        QStringLiteral("/kernels"));
    fusescope::MainWindow window;
    if (options.headless()) return fusescope::runHeadless(window, options);
    if (!options.openPath.isEmpty())
        if (const QString openError = window.openRecording(options.openPath);
            !openError.isEmpty()) {
            std::fprintf(stderr, "fusescope: %s\n", qPrintable(openError));
            window.reportOpenErrorLater(openError);
        }
    if (options.presentation) window.setPresentation(true, false);
    window.show();
    if (!options.comparePath.isEmpty())
        if (const QString compareError = window.compareWith(options.comparePath);
            !compareError.isEmpty()) {
            std::fprintf(stderr, "fusescope: %s\n", qPrintable(compareError));
            window.reportOpenErrorLater(compareError);
        }
    if (options.run) window.startCommand(*options.run);
    if (options.lesson)
        if (const QString lessonError =
                openLessonOver(window, options.lesson->planPath, options.lesson->step - 1);
            !lessonError.isEmpty()) {
            std::fprintf(stderr, "fusescope: %s\n", qPrintable(lessonError));
            return 2;
        }
    return app.exec();
}
