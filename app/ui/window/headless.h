#pragma once
// The command line of `fusescope`: options, the choice of platform before QApplication exists,
// and the headless paths (--screenshot, --export-charts) that render without a display.
#include <QCommandLineParser>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

#include "ui/lesson/lesson_headless.h"
#include "worker/run_command.h"

namespace fusescope {

class MainWindow;

struct LaunchOptions {
    QString screenshotPath;
    QSize screenshotSize;  // the window's size for --screenshot (--size WxH)
    QString exportDirectory;
    QString exportPreset;  // --preset slide|half|print with --export-charts (empty: 1200×700)
    QString openPath;
    QString comparePath;   // --compare FILE: beside the opened file in Compare
    QStringList showTabs;  // tabs to bring to the front before the screenshot, by title
    QString tileCell;      // --tile-cell best|INDEX: a cell of the opened tile sweep, as if clicked
    bool presentation = false;      // --presentation: the presentation layout, for this start only
    std::optional<RunCommand> run;  // --run PIPELINE with its settings
    std::optional<LessonLaunch> lesson;  // --lesson PLAN with its step, answers and reveal
    bool headless() const { return !screenshotPath.isEmpty() || !exportDirectory.isEmpty(); }
};

void addLaunchOptions(QCommandLineParser& parser);
// Reads the parsed options; empty `error` on success, else a one-line message.
LaunchOptions readLaunchOptions(const QCommandLineParser& parser, QString* error);

// The default window size of --screenshot.
QSize defaultScreenshotSize();
// "1280x720" (also with X or ×) to a size of at least 1×1 and at most 16384 on a side.
std::optional<QSize> parseWindowSize(const QString& text);

// Looks at argv before any Qt application exists: does this start need a display?
bool argumentsAskForHeadless(int argc, char** argv);
bool argumentsAskForInfoOnly(int argc, char** argv);  // --help, --version
// True when Qt's default platform would find no display (no platform set, no DISPLAY/Wayland).
bool noDisplayAvailable();
// Headless starts use the offscreen platform only where there is no display (and no platform
// was chosen); with a display they render through it, as the user would see the window.
bool headlessNeedsOffscreenPlatform();

// Runs the headless paths on a constructed window; returns the process exit code.
int runHeadless(MainWindow& window, const LaunchOptions& options);

}  // namespace fusescope
