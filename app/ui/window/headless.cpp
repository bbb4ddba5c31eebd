#include "ui/window/headless.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QImage>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <cstdio>
#include <cstring>

#include "model/atomic_save.h"
#include "model/element_count.h"
#include "model/format.h"
#include "model/pipeline_catalog.h"
#include "model/problem_options.h"
#include "model/repeated_options.h"
#include "model/run_limits.h"
#include "ui/charts/chart_view.h"
#include "ui/compare/compare_window.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/export/chart_export.h"
#include "ui/export/export_save.h"
#include "ui/export/table_export.h"
#include "ui/jobs/cpu_speeds_gate.h"
#include "ui/run/run_panel.h"
#include "ui/window/main_window.h"
#include "ui/window/tab_lookup.h"

namespace fusescope {
namespace {

const QSize kScreenshotSize(1600, 1000);
constexpr int kLargestWindowSide = 16384;

void printError(const QString& message) {
    std::fprintf(stderr, "fusescope: %s\n", qPrintable(model::escapeControlCharacters(message)));
}

// Waits for `signal` of `sender`, turning the event loop; false after `timeoutMs`.
template <typename Sender, typename Signal>
bool waitFor(Sender* sender, Signal signal, int timeoutMs) {
    QEventLoop loop;
    bool arrived = false;
    QObject::connect(sender, signal, &loop, [&] {
        arrived = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return arrived;
}

// Prints a written file's path on stdout; false when stdout cannot be written (a closed pipe, a
// full disk), so that a script does not take the missing line for success.
bool printWrittenPath(const QString& path) {
    return std::printf("%s\n", qPrintable(QDir::toNativeSeparators(path))) >= 0 &&
           std::fflush(stdout) == 0;
}

// A batch write's outcome: the error, or the path written, on the standard streams. False
// when the write failed or its path could not be printed.
bool reportWrite(const QString& error, const QString& path) {
    if (!error.isEmpty()) {
        printError(error);
        return false;
    }
    if (!printWrittenPath(path)) {
        printError(QObject::tr("cannot write to standard output"));
        return false;
    }
    return true;
}

// Queued rebuilds and the bandwidth chart's coalesced replot (about 30 Hz) run before a grab.
void settle() {
    QEventLoop loop;
    QTimer::singleShot(100, &loop, &QEventLoop::quit);
    loop.exec();
    for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
}

}  // namespace

void addLaunchOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription(QObject::tr(
        "FuseScope makes GPU memory passes visible. Without options it opens the main window."));
    parser.addHelpOption();
    parser.addVersionOption();
    // The file manager starts `fusescope FILE` (the desktop entry's %f): the same as --open.
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QObject::tr("A recording or sweep to open (*.fusescope.json or *.json), as --open."),
        QStringLiteral("[file]"));
    addLessonOptions(parser);
    parser.addOptions({
        {QStringLiteral("screenshot"),
         QObject::tr("Render the window offscreen to <png> and exit (no display needed)."),
         QStringLiteral("png")},
        {QStringLiteral("size"),
         QObject::tr("Size of the --screenshot image in screen pixels, as on a screen of that "
                     "size (with QT_SCALE_FACTOR=1.5 the window gets 1/1.5 of it; default: "
                     "%1x%2).")
             .arg(kScreenshotSize.width())
             .arg(kScreenshotSize.height()),
         QStringLiteral("WxH")},
        {QStringLiteral("export-charts"),
         QObject::tr("Render every chart to <dir> as PNG, SVG and PDF, and every table as CSV "
                     "and PNG, and exit; with --preset %1 at that size.")
             .arg(exportPresetKeys()),
         QStringLiteral("dir")},
        {QStringLiteral("show-tab"),
         QObject::tr("Bring the tab whose title contains <text> to the front (repeatable), "
                     "e.g. \"Memory stage\" or \"Bandwidth\"."),
         QStringLiteral("text")},
        {QStringLiteral("tile-cell"),
         QObject::tr("With a tile sweep opened: load the cell numbered <cell> (from 0, in the "
                     "sweep's order) or the best one into the results, charts and stage, as a "
                     "click on the heatmap does."),
         QStringLiteral("best|cell")},
        {QStringLiteral("presentation"),
         QObject::tr("Start in the presentation layout (View > Presentation layout, F5) for "
                     "this start only: one chart or table fills the window, its text at least "
                     "%1 px.")
             .arg(kPresentationTextPixels)},
        {QStringLiteral("open"), QObject::tr("Open a recording (JSON written by fusescope-cli)."),
         QStringLiteral("recording.json")},
        {QStringLiteral("compare"),
         QObject::tr("With a file opened: open <file> beside it in Compare (two recordings of "
                     "runs, or two size sweeps of one pipeline); --screenshot then shows Compare."),
         QStringLiteral("file")},
        {QStringLiteral("run"), QObject::tr("Run <pipeline> first and wait for it."),
         QStringLiteral("pipeline")},
        {QStringLiteral("variants"),
         QObject::tr("Variants to run, comma-separated (default: all)."), QStringLiteral("list")},
        {QStringLiteral("backend"), QObject::tr("auto, cuda or cpu (default: auto)."),
         QStringLiteral("backend"), QStringLiteral("auto")},
        {QStringLiteral("n"), QObject::tr("Elements per array (default: 2^24)."),
         QStringLiteral("N")},
        {QStringLiteral("shape"), QObject::tr("Dimensions by name, e.g. M=512,H=1024,I=2816."),
         QStringLiteral("dims")},
        {QStringLiteral("preset"),
         QObject::tr("A named problem of the pipeline (classroom, ...), or with --export-charts "
                     "an export preset (%1).")
             .arg(exportPresetKeys()),
         QStringLiteral("name")},
        {QStringLiteral("dtype"),
         QObject::tr("float32, bfloat16 or tf32 (float32 storage, TF32 "
                     "tensor-core products), where the pipeline has "
                     "it."),
         QStringLiteral("type")},
        {QStringLiteral("tile"), QObject::tr("Tuning values, e.g. block_m=32,block_n=64."),
         QStringLiteral("values")},
        {QStringLiteral("vector"),
         QObject::tr("Vector width, %1 (default: %2).")
             .arg(QString::fromStdString(supportedVectorWidthsText()))
             .arg(kDefaultVectorWidth),
         QStringLiteral("width")},
        {QStringLiteral("repeats"),
         QObject::tr("Timed repeats (default: 20 on a GPU, 5 on the CPU)."),
         QStringLiteral("count")},
    });
}

LaunchOptions readLaunchOptions(const QCommandLineParser& parser, QString* error) {
    LaunchOptions options;
    error->clear();
    // One value an option, as the CLI takes them; --show-tab names tabs, and --preset may name
    // an export preset beside a problem's.
    *error = model::repeatedOptionError(
        parser, {QStringLiteral("show-tab"), QStringLiteral("preset"), QStringLiteral("answer")});
    if (!error->isEmpty()) return options;
    options.lesson = readLessonOptions(parser, error);
    if (!error->isEmpty()) return options;
    options.screenshotPath = parser.value(QStringLiteral("screenshot"));
    options.exportDirectory = parser.value(QStringLiteral("export-charts"));
    // An empty name would turn a batch run into an open window that waits for a person.
    for (const char* name : {"screenshot", "export-charts"})
        if (parser.isSet(QString::fromLatin1(name)) &&
            parser.value(QString::fromLatin1(name)).isEmpty()) {
            *error = QObject::tr("--%1 needs a %2")
                         .arg(QString::fromLatin1(name), std::strcmp(name, "screenshot") == 0
                                                             ? QObject::tr("file name")
                                                             : QObject::tr("folder name"));
            return options;
        }
    options.screenshotSize = kScreenshotSize;
    if (parser.isSet(QStringLiteral("size"))) {
        if (!parser.isSet(QStringLiteral("screenshot"))) {
            *error = QObject::tr("--size needs --screenshot FILE");
            return options;
        }
        const std::optional<QSize> size = parseWindowSize(parser.value(QStringLiteral("size")));
        if (!size) {
            *error = QObject::tr("--size must be WIDTHxHEIGHT, 1 to %1 each, not '%2'")
                         .arg(kLargestWindowSide)
                         .arg(parser.value(QStringLiteral("size")));
            return options;
        }
        options.screenshotSize = *size;
    }
    // Checked before any run: a target that cannot take the picture would lose the run.
    if (!options.screenshotPath.isEmpty())
        if (const QString problem = model::saveTargetProblem(options.screenshotPath);
            !problem.isEmpty()) {
            *error = QObject::tr("--screenshot %1: %2").arg(options.screenshotPath, problem);
            return options;
        }
    // --preset names an export preset (slide, half, print) or a problem of the pipeline.
    QString problemPreset;
    for (const QString& value : parser.values(QStringLiteral("preset"))) {
        if (findExportPreset(value)) {
            if (!parser.isSet(QStringLiteral("export-charts"))) {
                *error = QObject::tr("--preset %1 needs --export-charts DIR").arg(value);
                return options;
            }
            options.exportPreset = value.toLower();
        } else {
            problemPreset = value;
        }
    }
    options.openPath = parser.value(QStringLiteral("open"));
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1 || (!files.isEmpty() && parser.isSet(QStringLiteral("open")))) {
        *error = QObject::tr("give one file to open (found %1)")
                     .arg(QStringList(files + (parser.isSet(QStringLiteral("open"))
                                                   ? QStringList{options.openPath}
                                                   : QStringList{}))
                              .join(QStringLiteral(", ")));
        return options;
    }
    if (!files.isEmpty()) options.openPath = files.front();
    options.comparePath = parser.value(QStringLiteral("compare"));
    if (parser.isSet(QStringLiteral("compare")) &&
        (options.openPath.isEmpty() || options.comparePath.isEmpty())) {
        *error = QObject::tr("--compare FILE needs a file to open beside it (--open or a file)");
        return options;
    }
    options.showTabs = parser.values(QStringLiteral("show-tab"));
    options.presentation = parser.isSet(QStringLiteral("presentation"));
    options.tileCell = parser.value(QStringLiteral("tile-cell"));
    if (parser.isSet(QStringLiteral("tile-cell")) && options.openPath.isEmpty()) {
        *error = QObject::tr("--tile-cell needs a tile sweep to open");
        return options;
    }
    if (!parser.isSet(QStringLiteral("run"))) {
        if (!problemPreset.isEmpty()) {
            *error = QObject::tr("--preset %1 needs --run PIPELINE (export presets: %2)")
                         .arg(problemPreset, exportPresetKeys());
            return options;
        }
        for (const char* name :
             {"variants", "n", "shape", "dtype", "tile", "backend", "vector", "repeats"})
            if (parser.isSet(QString::fromLatin1(name))) {
                *error = QObject::tr("--%1 needs --run PIPELINE").arg(QString::fromLatin1(name));
                return options;
            }
        return options;
    }
    RunCommand command;
    RunRequest& request = command.request;
    const QString pipelineName = parser.value(QStringLiteral("run"));
    const PipelineSpec* pipeline = findPipeline(pipelineName.toStdString());
    if (!pipeline) {
        QStringList known;
        for (const PipelineSpec& spec : pipelines()) known << QString::fromStdString(spec.name);
        *error = QObject::tr("unknown pipeline '%1' (known: %2)")
                     .arg(pipelineName, known.join(QStringLiteral(", ")));
        return options;
    }
    request.pipeline = pipeline->name;
    const QString variants = parser.value(QStringLiteral("variants"));
    if (!variants.isEmpty() && variants != QLatin1String("all")) {
        for (const QString& variant : variants.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!findVariant(*pipeline, variant.trimmed().toStdString())) {
                *error =
                    QObject::tr("unknown variant '%1' of pipeline '%2'").arg(variant, pipelineName);
                return options;
            }
            request.variants.push_back(variant.trimmed().toStdString());
        }
    }
    const std::optional<BackendChoice> backend =
        backendChoiceFromKey(parser.value(QStringLiteral("backend")).toStdString());
    if (!backend) {
        *error = QObject::tr("unknown backend '%1' (use auto, cuda or cpu)")
                     .arg(parser.value(QStringLiteral("backend")));
        return options;
    }
    command.request.target.backend = *backend;
    bool ok = false;
    // The problem: --preset, --shape and --n, --dtype, --vector and --tile, checked against
    // the pipeline's declarations (as the CLI does).
    model::ProblemText problemText;
    problemText.preset = problemPreset;
    problemText.dimensions = parser.value(QStringLiteral("shape"));
    problemText.dtype = parser.value(QStringLiteral("dtype"));
    problemText.tuning = parser.value(QStringLiteral("tile"));
    if (parser.isSet(QStringLiteral("n"))) {
        if (!model::elementCountValue(parser.value(QStringLiteral("n")))) {
            *error = QObject::tr("--n must be a whole number of at least 1, not '%1'")
                         .arg(parser.value(QStringLiteral("n")));
            return options;
        }
        problemText.dimensions +=
            QStringLiteral(",N=") + parser.value(QStringLiteral("n")).remove(QLatin1Char(','));
    }
    if (parser.isSet(QStringLiteral("vector"))) {
        const int width = parser.value(QStringLiteral("vector")).toInt(&ok);
        if (!ok || !isSupportedVectorWidth(width)) {
            *error = QObject::tr("--vector must be %1, not '%2'")
                         .arg(QString::fromStdString(supportedVectorWidthsText()),
                              parser.value(QStringLiteral("vector")));
            return options;
        }
        problemText.tuning += QStringLiteral(",vector=%1").arg(width);
    }
    Result<Problem> problem = model::problemFromText(*pipeline, problemText);
    if (!problem) {
        *error = QString::fromStdString(problem.status().message());
        return options;
    }
    request.problem = *problem;
    // Without --repeats the backend's defaults apply once the backend is known (runHeadless).
    request.settings.repeats = 0;
    if (parser.isSet(QStringLiteral("repeats")))
        request.settings.repeats = parser.value(QStringLiteral("repeats")).toInt(&ok);
    if (parser.isSet(QStringLiteral("repeats")) &&
        (!ok || request.settings.repeats < 1 || request.settings.repeats > kMaxRepeats)) {
        *error = QObject::tr("--repeats must be 1 to %1, not '%2'")
                     .arg(kMaxRepeats)
                     .arg(parser.value(QStringLiteral("repeats")));
        return options;
    }
    options.run = command;
    return options;
}

QSize defaultScreenshotSize() {
    return kScreenshotSize;
}

std::optional<QSize> parseWindowSize(const QString& text) {
    QString cleaned = text.trimmed().toLower();
    cleaned.replace(QChar(0x00D7), QLatin1Char('x'));
    const QStringList parts = cleaned.split(QLatin1Char('x'));
    if (parts.size() != 2) return std::nullopt;
    bool widthOk = false, heightOk = false;
    const int width = parts[0].trimmed().toInt(&widthOk);
    const int height = parts[1].trimmed().toInt(&heightOk);
    if (!widthOk || !heightOk || width < 1 || height < 1 || width > kLargestWindowSide ||
        height > kLargestWindowSide)
        return std::nullopt;
    return QSize(width, height);
}

namespace {
// Loads a cell of the explorer's sweep as a click on its heatmap would: `which` is "best" or
// the cell's number in the sweep's order. Empty on success, else why not.
QString clickTileCell(MainWindow& window, const QString& which) {
    TileExplorerTab* tab = window.tileExplorer();
    if (!tab || tab->sweep().cells.empty())
        return QObject::tr("--tile-cell: no tile sweep is open");
    const std::vector<tiles::TileCell>& cells = tab->sweep().cells;
    int index = -1;
    if (which == QLatin1String("best")) {
        for (std::size_t i = 0; i < cells.size() && index < 0; ++i)
            if (cells[i].best) index = static_cast<int>(i);
        if (index < 0) return QObject::tr("--tile-cell best: the sweep has no measured cell");
    } else {
        bool ok = false;
        index = which.toInt(&ok);
        if (!ok || index < 0 || index >= static_cast<int>(cells.size()))
            return QObject::tr("--tile-cell %1: give best or a cell from 0 to %2")
                .arg(which)
                .arg(cells.size() - 1);
    }
    if (!cells[static_cast<std::size_t>(index)].measured)
        return QObject::tr("--tile-cell %1: that configuration was not measured").arg(which);
    emit tab->heatmap()->cellClicked(index);
    return {};
}

// The charts and tables of the main window, and those of Compare where it is open: of its
// pages, the one shown.
bool insideCompare(const QWidget* widget, const QWidget* compare) {
    return compare && (widget == compare || compare->isAncestorOf(widget));
}

template <typename Widget>
QList<Widget*> exportableOf(MainWindow& window, QList<Widget*> (*exportable)(QWidget*)) {
    QWidget* compare = window.compareWindow();
    QList<Widget*> found;
    for (Widget* widget : exportable(&window))
        if (!insideCompare(widget, compare)) found << widget;
    if (compare && compare->isVisible())
        for (Widget* widget : exportable(compare))
            if (widget->isVisibleTo(compare)) found << widget;
    return found;
}

QList<QCustomPlot*> exportablePlotsOf(MainWindow& window) {
    return exportableOf(window, exportablePlots);
}

QList<QTableView*> exportableTablesOf(MainWindow& window) {
    return exportableOf(window, exportableTables);
}

bool argumentIs(const char* argument, const char* option) {
    const std::size_t length = std::strlen(option);
    return std::strncmp(argument, option, length) == 0 &&
           (argument[length] == '\0' || argument[length] == '=');
}
}  // namespace

bool argumentsAskForHeadless(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (argumentIs(argv[i], "--screenshot") || argumentIs(argv[i], "--export-charts"))
            return true;
    return false;
}

bool argumentsAskForInfoOnly(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (argumentIs(argv[i], "--help") || argumentIs(argv[i], "-h") ||
            argumentIs(argv[i], "--help-all") || argumentIs(argv[i], "--version") ||
            argumentIs(argv[i], "-v"))
            return true;
    return false;
}

bool noDisplayAvailable() {
    return qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
           qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

bool headlessNeedsOffscreenPlatform() {
    return noDisplayAvailable();
}

int runHeadless(MainWindow& window, const LaunchOptions& options) {
    // --size is the screen's pixels: the window's logical size is that over the scale factor.
    const QSize screenPixels =
        options.screenshotSize.isValid() ? options.screenshotSize : kScreenshotSize;
    if (options.lesson)
        return renderLessonStep(*options.lesson, screenPixels, options.screenshotPath);
    const qreal ratio = window.devicePixelRatioF() > 0 ? window.devicePixelRatioF() : 1.0;
    window.resize(
        QSize(qRound(screenPixels.width() / ratio), qRound(screenPixels.height() / ratio)));
    window.show();
    if (options.presentation) window.setPresentation(true, false);
    if (!window.backendsKnown()) waitFor(&window, &MainWindow::backendsProbed, 30000);

    if (!options.openPath.isEmpty()) {
        if (const QString error = window.openRecording(options.openPath); !error.isEmpty()) {
            printError(error);
            return 1;
        }
        // A recording made elsewhere notes its shape's cost here once the CPU is measured.
        if (window.cpuSpeedsGate()->isMeasuring())
            waitFor(window.cpuSpeedsGate(), &CpuSpeedsGate::settled, 30000);
    }
    if (!options.comparePath.isEmpty()) {
        if (const QString error = window.compareWith(options.comparePath); !error.isEmpty()) {
            printError(error);
            return 1;
        }
        // The compare window on a screen of the screenshot's size, as the main window is.
        window.compareWindow()->resize(window.size());
    }
    if (!options.tileCell.isEmpty()) {
        if (const QString error = clickTileCell(window, options.tileCell); !error.isEmpty()) {
            printError(error);
            return 1;
        }
    }
    if (options.run) {
        RunCommand command = *options.run;
        // Shown first, so that the panel knows which backend the command resolves to.
        window.runPanel()->setCommand(command);
        const RunSettings defaults = runDefaultsFor(window.runPanel()->resolvedBackend());
        RunSettings& settings = command.request.settings;
        if (settings.repeats == 0) settings.repeats = defaults.repeats;
        settings.warmup = defaults.warmup;
        window.runPanel()->setCommand(command);
        bool ok = false;
        QString message;
        QEventLoop loop;
        QObject::connect(&window, &MainWindow::runEnded, &loop,
                         [&](bool finished, const QString& text) {
                             ok = finished;
                             message = text;
                             loop.quit();
                         });
        window.startCommand(command);
        loop.exec();
        if (!ok) {
            printError(QObject::tr("the run did not finish: %1").arg(message));
            return 1;
        }
    }
    if (!options.exportDirectory.isEmpty()) {
        for (ChartView* chart : window.charts()) chart->rebuildNow();
        settle();
        // What the opened file, the run or the comparison shows: charts with data, tables with
        // rows. Views of nothing (no sweep opened, say) are left out.
        QList<QCustomPlot*> plots;
        for (QCustomPlot* chart : exportablePlotsOf(window))
            if (plotShowsData(*chart)) plots << chart;
        const QList<QTableView*> tables = exportableTablesOf(window);
        if (plots.isEmpty() && tables.isEmpty()) {
            printError(QObject::tr("nothing to chart: give --run PIPELINE or --open FILE"));
            return 1;
        }
        QDir directory(options.exportDirectory);
        if (!directory.mkpath(QStringLiteral("."))) {
            printError(QObject::tr("cannot create the folder %1").arg(options.exportDirectory));
            return 1;
        }
        const ExportPreset* preset = findExportPreset(options.exportPreset);
        for (QCustomPlot* chart : plots) {
            for (const char* suffix : {"png", "svg", "pdf"}) {
                const QString path = directory.filePath(exportFileStem(*chart) + QLatin1Char('.') +
                                                        QLatin1String(suffix));
                if (!reportWrite(
                        preset ? exportChart(*chart, path, *preset) : exportChart(*chart, path),
                        path))
                    return 1;
            }
        }
        // The tables as their context menu exports them: CSV for a spreadsheet, images for
        // slides, its text at the preset's size, a wide or long table on as many as it takes.
        const int tableTextPixels = preset ? qRound(preset->textPixels) : kTableTextPixels;
        const QSize tablePage = preset ? preset->pixels : kTablePageSize;
        for (QTableView* table : tables) {
            for (const char* suffix : {"csv", "png"}) {
                const QString path = directory.filePath(table->objectName() + QLatin1Char('.') +
                                                        QLatin1String(suffix));
                QStringList written;
                const QString error =
                    exportTable(*table->model(), path, tableTextPixels, tablePage, &written);
                if (!error.isEmpty()) {
                    printError(error);
                    return 1;
                }
                for (const QString& each : written)
                    if (!reportWrite(QString(), each)) return 1;
            }
        }
    }
    // The window's two tab widgets first, then tabs inside tabs (the explorer's Roofline).
    QList<QTabWidget*> tabWidgets = {window.viewTabs(), window.chartTabs()};
    for (QTabWidget* inner : window.findChildren<QTabWidget*>())
        if (!tabWidgets.contains(inner)) tabWidgets << inner;
    for (const QString& wanted : options.showTabs) {
        const TabMatch found = findTabNamed(tabWidgets, wanted);
        if (!found.tabs) {
            printError(QObject::tr("no tab titled like '%1'").arg(wanted));
            return 1;
        }
        found.tabs->setCurrentIndex(found.index);
        // Also the tab already in front: it fills the presentation layout.
        if (found.tabs == window.viewTabs() || found.tabs == window.chartTabs())
            window.presentTabs(found.tabs);
    }
    if (!options.screenshotPath.isEmpty()) {
        for (ChartView* chart : window.charts()) chart->rebuildNow();
        settle();
        // With --compare the picture is of Compare, the window asked for.
        QWidget* shown = options.comparePath.isEmpty()
                             ? static_cast<QWidget*>(&window)
                             : static_cast<QWidget*>(window.compareWindow());
        if (!reportWrite(saveImageAsPng(shown->grab().toImage(), options.screenshotPath),
                         options.screenshotPath))
            return 1;
    }
    return 0;
}

}  // namespace fusescope
