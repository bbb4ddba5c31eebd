// The `fusescope` executable started as a user or a script would on a machine with no display:
// no DISPLAY, no Wayland, no QT_QPA_PLATFORM.
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "model/producer.h"
#include "model/recording_json.h"
#include "model/version.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"
#include "runtime/runner.h"
#include "support/folder_contents.h"
#include "support/gui_process.h"
#include "support/write_faults.h"

using namespace fusescope;
using testsupport::contentsOf;

namespace {

using Outcome = testsupport::GuiOutcome;

// `fileSizeLimit` > 0: writes to files past that many bytes fail, as on a full disk.
Outcome runGui(const QStringList& arguments, long fileSizeLimit = 0) {
    QProcess process;
    if (fileSizeLimit > 0)
        process.setChildProcessModifier([fileSizeLimit] {
            testsupport::limitFileSizeInThisProcess(static_cast<rlim_t>(fileSizeLimit));
        });
    process.setProcessEnvironment(testsupport::environmentWithoutDisplay());
    return testsupport::finishGui(process, arguments, 240000);
}

QString firstPipeline() {
    return QString::fromStdString(pipelines().front().name);
}

// A recording as fusescope-cli writes it: a real CPU run through the model's writer.
bool writeRecording(const QString& path) {
    std::unique_ptr<Backend> backend = createCpuBackend(1);
    RunRequest request;
    request.pipeline = findPipeline("swiglu")->name;
    request.problem.dimensions["N"] = 10000;
    request.settings.repeats = 2;
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    if (!report.isOk()) return false;
    model::RecordingOrigin options;
    options.producer = model::producerString(QStringLiteral("fusescope-cli"));
    return model::saveRecording(model::recordingFrom(*report, options), path).isOk();
}

// A whole export: a PDF ends with %%EOF, an SVG with </svg>, a PNG decodes.
bool isCompleteExport(const QString& path) {
    const QByteArray bytes = contentsOf(path).trimmed();
    if (path.endsWith(QStringLiteral(".pdf"))) return bytes.endsWith("%%EOF");
    if (path.endsWith(QStringLiteral(".svg"))) return bytes.endsWith("</svg>");
    if (path.endsWith(QStringLiteral(".csv"))) return contentsOf(path).endsWith("\r\n");
    return !QImage(path).isNull();
}

}  // namespace

class HeadlessTest : public QObject {
    Q_OBJECT
  private slots:
    void helpAndVersionNeedNoDisplay();
    void plainStartWithoutDisplayExplainsItself();
    void screenshotAfterACpuRun();
    void exportChartsFromARecording();
    void slidePresetTextReadsOnASlide();
    void badArgumentsFailWithAMessage();
    void emptyOutputNamesFailAtOnce();
    void repeatsHaveTheCliLimit();
    void repeatedOptionsAreRefusedAsTheCliRefusesThem();
    void openRefusesSpecialFiles();
    void failedScreenshotKeepsThePreviousFile();
    void chartExportOnAFullDiskLeavesOnlyWholeFiles();
    void aTileCellLoadsIntoTheStage();
    void compareOfTwoSweepsInBatch();
};

void HeadlessTest::helpAndVersionNeedNoDisplay() {
    const Outcome help = runGui({QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.contains(QStringLiteral("--screenshot")), qPrintable(help.out));
    QVERIFY(help.out.contains(QStringLiteral("--export-charts")));
    const Outcome version = runGui({QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QVERIFY2(version.out.contains(QString::fromLatin1(model::kFuseScopeVersion)),
             qPrintable(version.out));
}

void HeadlessTest::plainStartWithoutDisplayExplainsItself() {
    const Outcome plain = runGui({});
    QCOMPARE(plain.exitCode, 2);
    QVERIFY2(plain.err.contains(QStringLiteral("no display")), qPrintable(plain.err));
    QCOMPARE(plain.err.trimmed().count(QLatin1Char('\n')), 0);  // one line
}

void HeadlessTest::screenshotAfterACpuRun() {
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("window.png"));
    const Outcome shot = runGui({"--screenshot", path, "--run", firstPipeline(), "--backend", "cpu",
                                 "--n", "65536", "--repeats", "2", "--show-tab", "Results"});
    QVERIFY2(shot.exitCode == 0, qPrintable(shot.err));
    const QImage image(path);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 1200 && image.height() >= 800);
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 9)
        for (int x = 0; x < image.width(); x += 9) colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 16);
}

void HeadlessTest::exportChartsFromARecording() {
    QTemporaryDir directory;
    const QString recording = directory.filePath(QStringLiteral("recording.json"));
    QVERIFY(writeRecording(recording));

    const QString charts = directory.filePath(QStringLiteral("charts"));
    const Outcome exported = runGui({"--export-charts", charts, "--open", recording});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    const QStringList files = QDir(charts).entryList(QDir::Files, QDir::Name);
    // The three run charts, each as PNG, SVG and PDF; the two results tables as CSV and PNG.
    // What has nothing to show for this recording is left out: the bandwidth chart (a CPU run has
    // no DRAM samples), the size sweep, the tile explorer's heatmap and roofline, and the tables
    // of counters and sweep points.
    QCOMPARE(files.size(), 9 + 4);
    QVERIFY(files.contains(QStringLiteral("bytes_per_kernel.svg")));
    QVERIFY(files.contains(QStringLiteral("allocation_in_flight.pdf")));
    QVERIFY(!files.contains(QStringLiteral("bandwidth_over_time.svg")));
    QVERIFY(!files.contains(QStringLiteral("tile_heatmap.svg")));
    QVERIFY(!files.contains(QStringLiteral("size_sweep.png")));
    for (const QString& table : {QStringLiteral("variantTable"), QStringLiteral("kernelTable")})
        for (const QString& suffix : {QStringLiteral(".csv"), QStringLiteral(".png")})
            QVERIFY2(files.contains(table + suffix), qPrintable(files.join(QLatin1Char(' '))));
    QVERIFY(!files.contains(QStringLiteral("measurementTable.csv")));
    for (const QString& name : files) {
        QVERIFY2(QFileInfo(QDir(charts).filePath(name)).size() > 0, qPrintable(name));
        QVERIFY(exported.out.contains(name));
        QVERIFY2(isCompleteExport(QDir(charts).filePath(name)), qPrintable(name));
    }
    // The variants' table as CSV: a header, then one line per variant the recording holds, each
    // naming its variant.
    QFile csv(QDir(charts).filePath(QStringLiteral("variantTable.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(csv.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    const model::Recording recorded = model::loadRecording(recording).value();
    QCOMPARE(lines.size(), 1 + recorded.runs.size());
    for (const model::VariantResult& run : recorded.runs)
        QVERIFY2(lines.filter(model::toQString(run.variant)).size() == 1, run.variant.c_str());
    // And as an image: one row per line, wider than it is tall for a few columns.
    const QImage variants(QDir(charts).filePath(QStringLiteral("variantTable.png")));
    QVERIFY(!variants.isNull());
    QVERIFY(variants.height() >= lines.size() * 18);
}

// The pixel sizes of the text an SVG draws: each <text>'s font-size times the scale of the
// transform of the group it is in (QSvgGenerator writes one group per state).
QList<double> svgTextPixels(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QString svg = QString::fromUtf8(file.readAll());
    static const QRegularExpression group(
        QString::fromLatin1(R"re(<g [^>]*transform="matrix\(([^,]+),([^,]+),)re"));
    static const QRegularExpression text(
        QString::fromLatin1(R"re(<text [^>]*font-size="([0-9.]+)")re"));
    QList<double> pixels;
    double scale = 1.0;
    qsizetype at = 0;
    while (true) {
        const QRegularExpressionMatch nextGroup = group.match(svg, at);
        const QRegularExpressionMatch nextText = text.match(svg, at);
        if (!nextText.hasMatch()) break;
        if (nextGroup.hasMatch() && nextGroup.capturedStart() < nextText.capturedStart()) {
            scale = std::hypot(nextGroup.captured(1).toDouble(), nextGroup.captured(2).toDouble());
            at = nextGroup.capturedEnd();
            continue;
        }
        pixels << nextText.captured(1).toDouble() * scale;
        at = nextText.capturedEnd();
    }
    return pixels;
}

// --preset slide: every chart is 1920×1080 with a title of 24 px or more and no text under
// 16 px, measured in the exported SVG; the PNG has the preset's pixels.
void HeadlessTest::slidePresetTextReadsOnASlide() {
    QTemporaryDir directory;
    const QString recording = directory.filePath(QStringLiteral("recording.json"));
    QVERIFY(writeRecording(recording));
    const QString charts = directory.filePath(QStringLiteral("charts"));
    const Outcome exported =
        runGui({"--export-charts", charts, "--preset", "slide", "--open", recording});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    const QStringList svgs = QDir(charts).entryList({QStringLiteral("*.svg")}, QDir::Files);
    QCOMPARE(svgs.size(), 3);  // the charts with data: the three run charts
    for (const QString& name : svgs) {
        const QList<double> pixels = svgTextPixels(QDir(charts).filePath(name));
        QVERIFY2(pixels.size() >= 2, qPrintable(name));  // a title and more
        const double largest = *std::max_element(pixels.cbegin(), pixels.cend());
        const double smallest = *std::min_element(pixels.cbegin(), pixels.cend());
        qInfo("%s: %lld texts, %.1f to %.1f px", qPrintable(name),
              static_cast<long long>(pixels.size()), smallest, largest);
        QVERIFY2(largest >= 24.0,
                 qPrintable(QStringLiteral("%1: title %2 px").arg(name).arg(largest)));
        QVERIFY2(smallest >= 16.0,
                 qPrintable(QStringLiteral("%1: text of %2 px").arg(name).arg(smallest)));
        const QString png = QDir(charts).filePath(QFileInfo(name).completeBaseName() + ".png");
        QCOMPARE(QImage(png).size(), QSize(1920, 1080));
    }
    const Outcome unknown =
        runGui({"--export-charts", charts, "--preset", "poster", "--open", recording});
    QCOMPARE(unknown.exitCode, 2);
}

// An empty name made the batch run open the window and wait for a person.
void HeadlessTest::emptyOutputNamesFailAtOnce() {
    const Outcome shot = runGui({QStringLiteral("--screenshot"), QString()});
    QCOMPARE(shot.exitCode, 2);
    QVERIFY2(shot.err.contains(QStringLiteral("--screenshot needs a file name")),
             qPrintable(shot.err));
    const Outcome charts =
        runGui({QStringLiteral("--export-charts="), QStringLiteral("--run"), firstPipeline()});
    QCOMPARE(charts.exitCode, 2);
    QVERIFY2(charts.err.contains(QStringLiteral("--export-charts needs a folder name")),
             qPrintable(charts.err));
}

// Two values of one option: the window took the last one silently.
void HeadlessTest::repeatedOptionsAreRefusedAsTheCliRefusesThem() {
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("x.png"));
    const QString a = directory.filePath(QStringLiteral("a.json"));
    const QString b = directory.filePath(QStringLiteral("b.json"));
    const QList<std::pair<QStringList, QString>> cases = {
        {{"--screenshot", path, "--open", a, "--open", b}, "--open is given 2 times"},
        {{"--screenshot", path, "--size", "800x600", "--size", "1280x720"},
         "--size is given 2 times (800x600, 1280x720); give it once"},
        {{"--screenshot", path, "--run", firstPipeline(), "--run", firstPipeline()},
         "--run is given 2 times"},
        {{"--screenshot", path, "--screenshot", path}, "--screenshot is given 2 times"},
        {{"--screenshot", path, "--run", firstPipeline(), "--backend", "cpu", "--backend", "cpu"},
         "--backend is given 2 times"},
    };
    for (const auto& [arguments, expected] : cases) {
        const Outcome outcome = runGui(arguments);
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY2(outcome.err.contains(expected), qPrintable(outcome.err));
        QVERIFY(!QFileInfo::exists(path));
    }
    // Tabs are named one an option.
    const Outcome tabs = runGui({"--screenshot", path, "--show-tab", "Results", "--show-tab",
                                 "Results", "--size", "640x480"});
    QVERIFY2(tabs.exitCode == 0, qPrintable(tabs.err));
}

// One limit for the GUI and the CLI (the GUI took a million).
void HeadlessTest::repeatsHaveTheCliLimit() {
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("x.png"));
    const Outcome tooMany =
        runGui({"--screenshot", path, "--run", firstPipeline(), "--repeats", "1000000"});
    QCOMPARE(tooMany.exitCode, 2);
    QVERIFY2(tooMany.err.contains(QStringLiteral("1 to %1").arg(kMaxRepeats)),
             qPrintable(tooMany.err));
    QVERIFY(!QFileInfo::exists(path));
}

// --open of a FIFO blocked; of /dev/zero grew memory until it aborted.
void HeadlessTest::openRefusesSpecialFiles() {
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("x.png"));
    const QString fifo = directory.filePath(QStringLiteral("pipe"));
    QVERIFY(testsupport::makeFifo(fifo));
    const Outcome fromFifo = runGui({"--screenshot", path, "--open", fifo});
    QCOMPARE(fromFifo.exitCode, 1);
    QVERIFY2(fromFifo.err.contains(QStringLiteral("FIFO")), qPrintable(fromFifo.err));
    const QString zero = directory.filePath(QStringLiteral("zero"));
    if (testsupport::makeZeroDevice(zero)) {
        const Outcome fromZero = runGui({"--screenshot", path, "--open", zero});
        QCOMPARE(fromZero.exitCode, 1);
        QVERIFY2(fromZero.err.contains(QStringLiteral("character device")),
                 qPrintable(fromZero.err));
    }
    QVERIFY(!QFileInfo::exists(path));
}

// A failed screenshot left a 0-byte or partial file; now the previous one stays as it was.
void HeadlessTest::failedScreenshotKeepsThePreviousFile() {
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("window.png"));
    QVERIFY(testsupport::writeFile(path, "the previous screenshot"));
    const Outcome shot = runGui({"--screenshot", path}, 4096);
    QCOMPARE(shot.exitCode, 1);
    QVERIFY2(shot.err.contains(QStringLiteral("cannot write ") + path), qPrintable(shot.err));
    QCOMPARE(contentsOf(path), QByteArray("the previous screenshot"));
    QCOMPARE(testsupport::entriesOf(directory.path()), QStringList{QStringLiteral("window.png")});
}

// On a nearly full disk the export said it succeeded and left a PDF without %%EOF and a cut SVG:
// now it fails with the reason, and every file it leaves is whole.
void HeadlessTest::chartExportOnAFullDiskLeavesOnlyWholeFiles() {
    QTemporaryDir directory;
    const QString recording = directory.filePath(QStringLiteral("recording.json"));
    QVERIFY(writeRecording(recording));
    const QString charts = directory.filePath(QStringLiteral("charts"));
    const Outcome exported = runGui({"--export-charts", charts, "--open", recording}, 20000);
    QCOMPARE(exported.exitCode, 1);
    QVERIFY2(exported.err.contains(QStringLiteral("cannot write")), qPrintable(exported.err));
    for (const QString& name : QDir(charts).entryList(QDir::Files | QDir::Hidden))
        QVERIFY2(isCompleteExport(QDir(charts).filePath(name)), qPrintable(name));
}

void HeadlessTest::badArgumentsFailWithAMessage() {
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("x.png"));
    const Outcome unknown = runGui({"--screenshot", path, "--run", "no_such_pipeline"});
    QVERIFY(unknown.exitCode != 0);
    QVERIFY2(unknown.err.contains(QStringLiteral("unknown pipeline")), qPrintable(unknown.err));
    const Outcome badN = runGui({"--screenshot", path, "--run", firstPipeline(), "--n", "0"});
    QVERIFY(badN.exitCode != 0);
    QVERIFY2(badN.err.contains(QStringLiteral("--n")), qPrintable(badN.err));
    const Outcome missing =
        runGui({"--screenshot", path, "--open", directory.filePath("nope.json")});
    QVERIFY(missing.exitCode != 0);
    QVERIFY2(missing.err.contains(QStringLiteral("nope.json")), qPrintable(missing.err));
    const Outcome noTab = runGui({"--screenshot", path, "--show-tab", "no such tab"});
    QVERIFY(noTab.exitCode != 0);
    QVERIFY2(noTab.err.contains(QStringLiteral("no such tab")), qPrintable(noTab.err));
    const Outcome nothing = runGui({"--export-charts", directory.filePath("c")});
    QVERIFY(nothing.exitCode != 0);
    QVERIFY(!QFileInfo::exists(path));
}

// --tile-cell: the stage after "clicking" a cell of a shipped H200 tile sweep, in batch mode.
void HeadlessTest::aTileCellLoadsIntoTheStage() {
    QTemporaryDir directory;
    const QString sweep =
        QStringLiteral(FUSESCOPE_SHIPPED_DIR "/tiles-mlp-classroom-bf16-h200.json");
    const QString path = directory.filePath(QStringLiteral("cell.png"));
    const Outcome best = runGui({"--screenshot", path, "--size", "1280x720", "--open", sweep,
                                 "--tile-cell", "best", "--show-tab", "Memory stage"});
    QVERIFY2(best.exitCode == 0, qPrintable(best.err));
    QVERIFY(!QImage(path).isNull());
    const QString other = directory.filePath(QStringLiteral("other.png"));
    const Outcome outOfRange =
        runGui({"--screenshot", other, "--open", sweep, "--tile-cell", "9999"});
    QVERIFY(outOfRange.exitCode != 0);
    QVERIFY2(outOfRange.err.contains(QStringLiteral("give best or a cell from 0 to")),
             qPrintable(outOfRange.err));
    QVERIFY(!QFileInfo::exists(other));
    const Outcome noSweep = runGui({"--screenshot", other, "--tile-cell", "best"});
    QVERIFY(noSweep.exitCode != 0);
    QVERIFY2(noSweep.err.contains(QStringLiteral("--tile-cell")), qPrintable(noSweep.err));
}

// --compare: the shipped H200 sweep beside a CPU sweep of the same pipeline; the picture is of
// Compare at the size asked for. A recording of runs beside a sweep is refused in words.
void HeadlessTest::compareOfTwoSweepsInBatch() {
    QTemporaryDir directory;
    const QString gpuSweep =
        QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-swiglu-size-sweep.fusescope.json");
    const QString cpuSweep = QStringLiteral(FUSESCOPE_UI_TEST_DATA_DIR "/swiglu-sweep-cpu.json");
    const QString path = directory.filePath(QStringLiteral("compare.png"));
    const Outcome both = runGui(
        {"--screenshot", path, "--size", "1280x720", "--open", gpuSweep, "--compare", cpuSweep});
    QVERIFY2(both.exitCode == 0, qPrintable(both.err));
    const QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1280, 720));

    const QString refused = directory.filePath(QStringLiteral("refused.png"));
    const Outcome runs =
        runGui({"--screenshot", refused, "--open", gpuSweep, "--compare",
                QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-swiglu-2e26.fusescope.json")});
    QVERIFY(runs.exitCode != 0);
    QVERIFY2(runs.err.contains(QStringLiteral("is a recording of runs")), qPrintable(runs.err));
    QVERIFY(!QFileInfo::exists(refused));
    const Outcome alone = runGui({"--screenshot", refused, "--compare", cpuSweep});
    QVERIFY(alone.exitCode != 0);
    QVERIFY2(alone.err.contains(QStringLiteral("--compare")), qPrintable(alone.err));
    QVERIFY(!QFileInfo::exists(refused));
}

QTEST_GUILESS_MAIN(HeadlessTest)
#include "headless_test.moc"
