// The main window driven through its widgets: pick a pipeline and variants, run on the CPU
// backend, see one row per variant, export the charts, save and reopen, remember settings.

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QtTest>

#include "long_run_question.h"
#include "pipelines/registry.h"
#include "runtime/runner.h"
#include "support/folder_contents.h"
#include "support/shown_window.h"
#include "support/variant_ticks.h"
#include "support/window_test_case.h"
#include "support/write_faults.h"
#include "ui/charts/chart_view.h"
#include "ui/export/chart_export.h"
#include "ui/export/chart_export_actions.h"
#include "ui/export/table_export.h"
#include "ui/jobs/cpu_speeds_gate.h"
#include "ui/results/results_model.h"
#include "ui/run/run_choices.h"
#include "ui/run/run_panel.h"
#include "ui/window/main_window.h"
#include "worker/cpu_run_estimate.h"
#include "worker/run_controller.h"

using namespace fusescope;
using fusescope::testing::answerTheLongRunQuestion;

namespace {

constexpr int kRunTimeoutMs = 120000;

int comboIndexOf(QComboBox* combo, const QString& key) {
    return combo->findData(key);
}

}  // namespace

class MainWindowTest : public testsupport::WindowTestCase {
    Q_OBJECT
  private slots:
    void pickPipelineRunOnCpuAndSeeResults();
    void everyChartExportsToPngSvgAndPdf();
    void shortcutsRunAndCancelWithinASecond();
    void savedRecordingReopensWithTheSameResults();
    void malformedRecordingGivesTheLoadersMessage();
    void anMlpRecordingSaysWhetherFusionPaidOff();
    void aVariantLeftOutIsNamedOverTheVariants();
    void settingsRememberTheChoicesAndGeometry();
    void chartsFollowADarkPalette();
    void otherPartsHaveTabsToPlugInto();
    void validationMessageGoesWhenTheChoicesAreValid();
    void samplingIntervalReachesTheRunCommand();
    void countedLaunchesReachTheRunCommand();
    void cpuRunFollowsItsDefaultsThreadsAndShowsRepeats();
    void hugeNSaysItPassesSixtyFourBits();
    void repeatsHaveTheSharedLimit();
    void exportOnAFullDiskKeepsThePreviousFiles();
    void aGpuSizedRecordingSaysWhatItCostsHereAndIsNotKept();
    void theFirstCpuRunMeasuresTheCpuOffTheUiThread();
    void cancelWhileTheCpuIsMeasuredStartsNoRun();

  private:
    // Picks the last pipeline of the registry and all its variants but the middle one.
    QStringList chooseThroughWidgets(MainWindow& window, const QString& n);
    bool runAndWait(MainWindow& window);
};

namespace {

// Sets the run panel's CPU threads to a count nothing before in this process measured (the
// largest when every count was) and returns it.
int chooseUnmeasuredThreads(RunPanel& panel) {
    QSpinBox* threads = panel.cpuThreadsSpin();
    int count = threads->minimum();
    while (count < threads->maximum() && cpuSpeedsSettled(count)) ++count;
    threads->setValue(count);
    return count;
}

}  // namespace

QStringList MainWindowTest::chooseThroughWidgets(MainWindow& window, const QString& n) {
    RunPanel* panel = window.runPanel();
    const PipelineSpec& pipeline = *findPipeline("swiglu");
    panel->pipelineCombo()->setCurrentIndex(
        comboIndexOf(panel->pipelineCombo(), QString::fromStdString(pipeline.name)));
    QListWidget* list = panel->variantList();
    [&] { QCOMPARE(static_cast<std::size_t>(list->count()), pipeline.variants.size()); }();
    const QStringList chosen = testsupport::tickAllButTheSecond(list, pipeline);
    panel->elementCountEdit()->clear();
    QTest::keyClicks(panel->elementCountEdit(), n);
    panel->backendCombo()->setCurrentIndex(comboIndexOf(panel->backendCombo(), "cpu"));
    panel->repeatsSpin()->setValue(3);
    return chosen;
}

bool MainWindowTest::runAndWait(MainWindow& window) {
    QSignalSpy ended(&window, &MainWindow::runEnded);
    QTest::mouseClick(window.runPanel()->runButton(), Qt::LeftButton);
    if (!window.isRunning()) return false;
    if (!ended.wait(kRunTimeoutMs)) return false;
    return ended.first().at(0).toBool();
}

void MainWindowTest::pickPipelineRunOnCpuAndSeeResults() {
    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // The models are checked while the run streams rows in and the final recording resets them.
    QAbstractItemModelTester variantTester(window.variantModel(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester kernelTester(window.kernelModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QStringList chosen = chooseThroughWidgets(window, QStringLiteral("65,537"));
    QVERIFY(window.runPanel()->runButton()->isEnabled());
    QVERIFY(runAndWait(window));

    auto* table = window.findChild<QTableView*>(QStringLiteral("variantTable"));
    QVERIFY(table);
    QAbstractItemModel* rows = table->model();
    QCOMPARE(rows->rowCount(), chosen.size());
    const PipelineSpec& pipeline = *findPipeline("swiglu");
    int kernels = 0;
    for (int row = 0; row < rows->rowCount(); ++row) {
        QCOMPARE(rows->index(row, VariantResultsModel::Variant).data().toString(), chosen[row]);
        const QString check = rows->index(row, VariantResultsModel::Check).data().toString();
        QVERIFY2(check.startsWith(QStringLiteral("OK")), qPrintable(check));
        kernels += static_cast<int>(findVariant(pipeline, chosen[row].toStdString())
                                        ->kernelsFor(pipeline.defaultProblem())
                                        .size());
    }
    QCOMPARE(window.findChild<QTableView*>(QStringLiteral("kernelTable"))->model()->rowCount(),
             kernels);
    QCOMPARE(window.recording().runs.size(), chosen.size());
    QCOMPARE(window.recording().runs.front().problem.dimension("N"), quint64{65537});
    for (ChartView* chart : window.charts())
        QCOMPARE(chart->recording().runs.size(), chosen.size());
    QVERIFY(!window.runPanel()->cancelButton()->isEnabled());
    QVERIFY(window.runPanel()->runButton()->isEnabled());
}

void MainWindowTest::everyChartExportsToPngSvgAndPdf() {
    MainWindow window(folder_->settings());
    window.show();
    chooseThroughWidgets(window, QStringLiteral("4096"));
    QVERIFY(runAndWait(window));
    QCOMPARE(window.charts().size(), 3);
    for (ChartView* chart : window.charts()) {
        chart->rebuildNow();
        const QString stem = folder_->filePath(chart->fileStem());
        QCOMPARE(exportChart(*chart, stem + ".png"), QString());
        QCOMPARE(exportChart(*chart, stem + ".svg"), QString());
        QCOMPARE(exportChart(*chart, stem + ".pdf"), QString());
        const QImage image(stem + ".png");
        QVERIFY2(!image.isNull(), qPrintable(stem));
        QCOMPARE(image.size(), kDefaultExportSize * 2);  // exported at twice the pixels
        // Something was drawn: a chart is not one flat colour.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 4);
        QFile svg(stem + ".svg");
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY(svgText.contains("<svg"));
        // The caption's words are in the drawing (QSvgGenerator writes text as text).
        QVERIFY2(svgText.contains("float32"), qPrintable(stem));
        QFile pdf(stem + ".pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QVERIFY(pdf.size() > 1000);
    }
    QVERIFY(!exportChart(*window.charts().first(), folder_->filePath("chart.bmp")).isEmpty());
    QVERIFY(
        !exportChart(*window.charts().first(), QStringLiteral("/nonexistent/dir/c.png")).isEmpty());

    // Every chart of the window offers itself, the bandwidth chart and the sweep included, and
    // each exports in each preset at the preset's pixels.
    const QList<QCustomPlot*> plots = exportablePlots(&window);
    QStringList stems;
    for (QCustomPlot* plot : plots) stems << exportFileStem(*plot);
    for (const char* stem : {"bytes_per_kernel", "time_per_variant", "allocation_in_flight",
                             "bandwidth_over_time", "size_sweep"})
        QVERIFY2(stems.contains(QLatin1String(stem)), qPrintable(stems.join(", ")));
    for (const ExportPreset& preset : exportPresets()) {
        const QString png = folder_->filePath(QStringLiteral("bandwidth-%1.png").arg(preset.key));
        QCustomPlot* bandwidth = plots.at(stems.indexOf(QStringLiteral("bandwidth_over_time")));
        QCOMPARE(exportChart(*bandwidth, png, preset), QString());
        const QImage image(png);
        QCOMPARE(image.size(), preset.pixels);
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), preset.dotsPerInch);
    }

    // The chart under the pointer goes to the clipboard at slide size.
    QCustomPlot* first = window.charts().first();
    const QPoint inside = first->mapToGlobal(first->rect().center());
    QCOMPARE(plotAt(&window, inside), first);
    QApplication::clipboard()->clear();
    copyChartImage(plotAt(&window, inside));
    QCOMPARE(QApplication::clipboard()->image().size(), QSize(1920, 1080));

    // Tables: CSV with the header and a line per variant; an image of the same rows.
    QAbstractItemModel* variants = window.variantModel();
    const QString csv = folder_->filePath(QStringLiteral("variants.csv"));
    QCOMPARE(exportTable(*variants, csv), QString());
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(csvFile.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), variants->rowCount() + 1);
    QVERIFY2(lines.first().startsWith(QStringLiteral("Variant,")), qPrintable(lines.first()));
    const QString tablePng = folder_->filePath(QStringLiteral("variants.png"));
    QCOMPARE(exportTable(*variants, tablePng), QString());
    QVERIFY(QImage(tablePng).height() >= (variants->rowCount() + 1) * 18);
    QVERIFY(!exportTable(*variants, folder_->filePath(QStringLiteral("v.xls"))).isEmpty());
}

void MainWindowTest::shortcutsRunAndCancelWithinASecond() {
    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    chooseThroughWidgets(window, QStringLiteral("2^20"));
    window.runPanel()->repeatsSpin()->setValue(window.runPanel()->repeatsSpin()->maximum());
    QSignalSpy ended(&window, &MainWindow::runEnded);
    QSignalSpy state(&window, &MainWindow::runStateChanged);
    // The most repeats take far over 30 s on a CPU: Run asks first, and No runs nothing.
    QString question;
    answerTheLongRunQuestion(QMessageBox::No, &question);
    QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);
    // Asked at once when this CPU's speeds are known, else once the worker measured them.
    QTRY_VERIFY2_WITH_TIMEOUT(question.contains(QStringLiteral("on this CPU")),
                              qPrintable(question), 30000);
    QVERIFY(!window.isRunning());
    window.activateWindow();  // back from the question
    QVERIFY(QTest::qWaitForWindowActive(&window));
    answerTheLongRunQuestion(QMessageBox::Yes, &question);
    QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);
    QVERIFY2(!question.isEmpty(), "Run did not ask the second time");
    QVERIFY(window.isRunning());
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QVERIFY(window.runPanel()->cancelButton()->isEnabled());
    QTest::qWait(300);  // let it get going
    QVERIFY(window.isRunning());
    QElapsedTimer latency;
    latency.start();
    QTest::keyClick(&window, Qt::Key_Escape);
    QVERIFY(ended.wait(5000));
    QVERIFY2(latency.elapsed() < 1000, qPrintable(QString::number(latency.elapsed())));
    QCOMPARE(ended.first().at(0).toBool(), false);
    QCOMPARE(ended.first().at(1).toString(), QStringLiteral("Cancelled"));
    QVERIFY(window.recording().runs.empty() ||
            static_cast<std::size_t>(window.recording().runs.size()) <
                window.runPanel()->command().request.variants.size());
}

void MainWindowTest::savedRecordingReopensWithTheSameResults() {
    const QString path = folder_->filePath(QStringLiteral("run.json"));
    QStringList variantsShown;
    {
        MainWindow window(folder_->settings());
        QCOMPARE(window.saveRecording(path).isEmpty(), false);  // nothing to save yet
        chooseThroughWidgets(window, QStringLiteral("5000"));
        QVERIFY(runAndWait(window));
        QCOMPARE(window.saveRecording(path), QString());
        for (const model::VariantResult& run : window.recording().runs)
            variantsShown << model::toQString(run.variant);
    }
    MainWindow reopened(folder_->settings());
    QCOMPARE(reopened.openRecording(path), QString());
    QVERIFY(reopened.recording().replayed);
    QCOMPARE(reopened.variantModel()->rowCount(), variantsShown.size());
    for (int row = 0; row < variantsShown.size(); ++row)
        QCOMPARE(
            reopened.variantModel()->index(row, VariantResultsModel::Variant).data().toString(),
            variantsShown[row]);
    QVERIFY(reopened.windowTitle().contains(QStringLiteral("run.json")));
    for (ChartView* chart : reopened.charts())
        QCOMPARE(chart->recording().runs.size(), variantsShown.size());
}

// Beside the variants' title: the production fusion against the framework's five kernels, in
// words, whole in the tooltip. A pipeline without a leanest fusion says nothing there.
void MainWindowTest::anMlpRecordingSaysWhetherFusionPaidOff() {
    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    QCOMPARE(window.openRecording(
                 QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-classroom-bf16.fusescope.json")),
             QString());
    auto* verdict = window.findChild<QLabel*>(QStringLiteral("fusionVerdict"));
    QVERIFY(verdict);
    QVERIFY2(verdict->toolTip().startsWith(QStringLiteral("production ")),
             qPrintable(verdict->toolTip()));
    QVERIFY(verdict->toolTip().contains(QStringLiteral("unfused")));
    QVERIFY(!verdict->text().isEmpty());
    QVERIFY(verdict->fontMetrics().horizontalAdvance(verdict->text()) <= verdict->width());
    QCOMPARE(window.openRecording(
                 QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-swiglu-2e26.fusescope.json")),
             QString());
    QVERIFY(verdict->toolTip().isEmpty());
}

// A recording whose run left a variant out (no code for it there): the Variants title names it at
// 1280x720, where the verdict's line is cut, and the table holds its "not run" row; a recording
// without one puts the plain title back.
void MainWindowTest::aVariantLeftOutIsNamedOverTheVariants() {
    QFile shipped(QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-classroom-bf16.fusescope.json"));
    QVERIFY(shipped.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(shipped.readAll()).object();
    QJsonObject leftOut;
    leftOut.insert(QStringLiteral("variant"), QStringLiteral("production"));
    leftOut.insert(QStringLiteral("reason"),
                   QStringLiteral("production cannot run here: no TF32 path on the GPU"));
    root.insert(QStringLiteral("variants_not_run"), QJsonArray{leftOut});
    QJsonArray runs;
    for (const QJsonValue run : root.value(QStringLiteral("runs")).toArray())
        if (run.toObject().value(QStringLiteral("variant")).toString() !=
            QStringLiteral("production"))
            runs.append(run);
    root.insert(QStringLiteral("runs"), runs);
    const QString path = folder_->filePath(QStringLiteral("left-out.fusescope.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(root).toJson());
    file.close();

    MainWindow window(folder_->settings());
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    QCOMPARE(window.openRecording(path), QString());
    auto* title = window.findChild<QLabel*>(QStringLiteral("variantsTitle"));
    QVERIFY(title);
    QCOMPARE(title->text(), QStringLiteral("Variants (not run: production)"));
    QVERIFY(title->isVisible());
    auto* table = window.findChild<QTableView*>(QStringLiteral("variantTable"));
    QVERIFY(table);
    const int last = table->model()->rowCount() - 1;
    QCOMPARE(table->model()->index(last, VariantResultsModel::Check).data().toString(),
             QStringLiteral("not run"));
    // Then a SwiGLU recording, a size sweep and a tile sweep: nothing of the MLP file stays.
    const auto shows = [&](const QString& word) {
        for (int row = 0; row < table->model()->rowCount(); ++row)
            if (table->model()->index(row, VariantResultsModel::Variant).data().toString() == word)
                return true;
        return false;
    };
    for (const char* next :
         {"/h200-swiglu-2e26.fusescope.json", "/h200-swiglu-size-sweep.fusescope.json",
          "/tiles-mlp-classroom-bf16-h200.json"}) {
        QCOMPARE(window.openRecording(QStringLiteral(FUSESCOPE_SHIPPED_DIR) + QLatin1String(next)),
                 QString());
        QCOMPARE(title->text(), QStringLiteral("Variants"));
        QVERIFY2(!shows(QStringLiteral("production")), next);
        QVERIFY2(!shows(QStringLiteral("lesson_fused")), next);
    }
    QCOMPARE(window.openRecording(
                 QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-classroom-bf16.fusescope.json")),
             QString());
    QCOMPARE(title->text(), QStringLiteral("Variants"));
}

void MainWindowTest::malformedRecordingGivesTheLoadersMessage() {
    const QString path = folder_->filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"format\": \"fusescope-recording\", \"version\": 1, \"runs\": [ {");
    file.close();
    MainWindow window(folder_->settings());
    const QString error = window.openRecording(path);
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(QStringLiteral("broken.json")), qPrintable(error));
    QVERIFY(window.recording().runs.empty());
    QVERIFY(!window.openRecording(folder_->filePath(QStringLiteral("missing.json"))).isEmpty());
}

void MainWindowTest::settingsRememberTheChoicesAndGeometry() {
    RunCommand chosen;
    {
        MainWindow window(folder_->settings());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(1400, 880);
        chooseThroughWidgets(window, QStringLiteral("777777"));
        window.runPanel()->vectorCombo()->setCurrentIndex(
            window.runPanel()->vectorCombo()->findData(1));
        window.runPanel()->repeatsSpin()->setValue(9);
        chosen = window.runPanel()->command();
        window.close();  // saves, as a user's close does
    }
    MainWindow again(folder_->settings());
    const RunCommand restored = again.runPanel()->command();
    QVERIFY(restored.request.pipeline == chosen.request.pipeline);
    QVERIFY(restored.request.variants == chosen.request.variants);
    QCOMPARE(restored.request.problem.dimension("N"), std::uint64_t{777777});
    QCOMPARE(restored.request.problem.tuningValue("vector"), 1);
    QCOMPARE(restored.request.target.backend, BackendChoice::Cpu);
    QCOMPARE(restored.request.settings.repeats, 9);
    QCOMPARE(again.size(), QSize(1400, 880));
}

void MainWindowTest::chartsFollowADarkPalette() {
    const QPalette original = QApplication::palette();
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x26));
    dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    dark.setColor(QPalette::Base, QColor(0x18, 0x1a, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    QApplication::setPalette(dark);
    {
        MainWindow window(folder_->settings());
        window.show();
        for (ChartView* chart : window.charts()) {
            chart->rebuildNow();
            QCOMPARE(chart->xAxis->tickLabelColor(), dark.color(QPalette::WindowText));
            QCOMPARE(chart->yAxis->labelColor(), dark.color(QPalette::WindowText));
            QCOMPARE(chart->axisRect()->backgroundBrush().color(), dark.color(QPalette::Base));
        }
    }
    QApplication::setPalette(original);
}

void MainWindowTest::otherPartsHaveTabsToPlugInto() {
    MainWindow window(folder_->settings());
    QVERIFY(window.viewTabs());
    QVERIFY(window.chartTabs());
    const int views = window.viewTabs()->count();
    const int charts = window.chartTabs()->count();
    window.viewTabs()->addTab(new QWidget, QStringLiteral("Memory stage"));
    window.chartTabs()->addTab(new QWidget, QStringLiteral("Live bandwidth"));
    QCOMPARE(window.viewTabs()->count(), views + 1);
    QCOMPARE(window.chartTabs()->count(), charts + 1);
}

// "Check at least one variant." shows while nothing is checked, and only then.
void MainWindowTest::validationMessageGoesWhenTheChoicesAreValid() {
    MainWindow window(folder_->settings());
    RunPanel* panel = window.runPanel();
    const auto shows = [panel](const QString& text) {
        for (const QLabel* label : panel->findChildren<QLabel*>())
            if (label->text().contains(text)) return true;
        return false;
    };
    const QString message = QStringLiteral("Check at least one variant");
    QVERIFY(!shows(message));
    QListWidget* list = panel->variantList();
    for (int row = 0; row < list->count(); ++row) list->item(row)->setCheckState(Qt::Unchecked);
    QVERIFY(shows(message));
    QVERIFY(!panel->runButton()->isEnabled());
    list->item(0)->setCheckState(Qt::Checked);
    QVERIFY(!shows(message));
    QVERIFY(panel->runButton()->isEnabled());
}

// The user's PM sampling interval (10 us to 1 ms) is what the worker is asked to measure with.
void MainWindowTest::samplingIntervalReachesTheRunCommand() {
    MainWindow window(folder_->settings());
    auto* interval = window.runPanel()->findChild<QSpinBox*>(QStringLiteral("sampleIntervalSpin"));
    QVERIFY(interval);
    QCOMPARE(interval->minimum(), 10);
    QCOMPARE(interval->maximum(), 1000);
    interval->setValue(50);
    const RunCommand command = window.runPanel()->command();
    QVERIFY(command.measure.has_value());
    QCOMPARE(command.measure->samplingIntervalNs, std::int64_t{50'000});
}

// How often the counter run counts each launch (1 to 9, default 3) is what the worker is asked
// for, and a command set on the panel (as a recording's) comes back with it.
void MainWindowTest::countedLaunchesReachTheRunCommand() {
    MainWindow window(folder_->settings());
    auto* launches = window.runPanel()->findChild<QSpinBox*>(QStringLiteral("countedLaunchesSpin"));
    QVERIFY(launches);
    QCOMPARE(launches->minimum(), 1);
    QCOMPARE(launches->maximum(), kMaxCountedLaunches);
    QCOMPARE(launches->value(), kDefaultCountedLaunches);
    launches->setValue(5);
    RunCommand command = window.runPanel()->command();
    QVERIFY(command.measure.has_value());
    QCOMPARE(command.measure->countedLaunches, 5);
    command.measure->countedLaunches = 7;
    window.runPanel()->setCommand(command);
    QCOMPARE(launches->value(), 7);
    QCOMPARE(window.runPanel()->command().measure->countedLaunches, 7);
}

// The CPU backend starts with its own (shorter) defaults, runs on the threads the user picks,
// says so in the caption, and reports progress per repeat.
void MainWindowTest::cpuRunFollowsItsDefaultsThreadsAndShowsRepeats() {
    MainWindow window(folder_->settings());
    RunPanel* panel = window.runPanel();
    BackendSummary gpu;
    gpu.cudaUsable = true;
    gpu.cudaDeviceName = QStringLiteral("Test GPU");
    panel->setBackendSummary(gpu);
    panel->backendCombo()->setCurrentIndex(comboIndexOf(panel->backendCombo(), "cuda"));
    QCOMPARE(panel->repeatsSpin()->value(), runDefaultsFor(BackendKind::Cuda).repeats);
    QCOMPARE(panel->warmupSpin()->value(), runDefaultsFor(BackendKind::Cuda).warmup);
    QVERIFY(!panel->cpuThreadsSpin()->isEnabled());
    auto* measure = panel->findChild<QCheckBox*>(QStringLiteral("measureCheck"));
    QVERIFY(measure);
    QVERIFY(measure->isEnabled());
    panel->backendCombo()->setCurrentIndex(comboIndexOf(panel->backendCombo(), "cpu"));
    QVERIFY(!measure->isEnabled());  // GPU-only, with the reason in its tooltip
    QVERIFY(measure->toolTip().contains(QStringLiteral("NVIDIA GPU")));
    QCOMPARE(panel->repeatsSpin()->value(), runDefaultsFor(BackendKind::Cpu).repeats);
    QCOMPARE(panel->warmupSpin()->value(), runDefaultsFor(BackendKind::Cpu).warmup);
    QVERIFY(panel->cpuThreadsSpin()->isEnabled());
    panel->repeatsSpin()->setValue(4);  // the user's own choice stays across backends
    panel->backendCombo()->setCurrentIndex(comboIndexOf(panel->backendCombo(), "auto"));
    QCOMPARE(panel->repeatsSpin()->value(), 4);
    panel->backendCombo()->setCurrentIndex(comboIndexOf(panel->backendCombo(), "cpu"));

    panel->cpuThreadsSpin()->setValue(1);
    QCOMPARE(panel->command().request.cpuThreads, 1);
    panel->elementCountEdit()->setText(QStringLiteral("100000"));
    QSignalSpy progress(window.runController(), &RunController::progress);
    QVERIFY(runAndWait(window));
    QCOMPARE(window.recording().device.multiprocessors, 1);
    bool sawRepeat = false;
    for (const QList<QVariant>& update : progress)
        sawRepeat = sawRepeat || update.at(1).toString().contains(QStringLiteral(": repeat "));
    QVERIFY(sawRepeat);
}

// N = 2^62 showed "0 B per array ... (arrays fit in it)": N * 4 wrapped around 64 bits.
void MainWindowTest::hugeNSaysItPassesSixtyFourBits() {
    MainWindow window(folder_->settings());
    RunPanel* panel = window.runPanel();
    auto* hint = panel->findChild<QLabel*>(QStringLiteral("cacheHint"));
    QVERIFY(hint);
    for (const QString& n : {QStringLiteral("2^62"), QStringLiteral("4611686018427387904"),
                             QStringLiteral("18446744073709551615")}) {
        panel->elementCountEdit()->clear();
        QTest::keyClicks(panel->elementCountEdit(), n);
        QVERIFY2(hint->text().contains(QStringLiteral("past 64 bits")), qPrintable(hint->text()));
        QVERIFY2(!hint->text().contains(QStringLiteral("fit in it")), qPrintable(hint->text()));
    }
    panel->elementCountEdit()->clear();
    QTest::keyClicks(panel->elementCountEdit(), QStringLiteral("2^61"));
    QVERIFY2(hint->text().startsWith(QStringLiteral("9.22 EB per array")),
             qPrintable(hint->text()));
}

// The CLI caps repeats at kMaxRepeats; the panel and the runner use the same limit.
void MainWindowTest::repeatsHaveTheSharedLimit() {
    MainWindow window(folder_->settings());
    QCOMPARE(window.runPanel()->repeatsSpin()->maximum(), kMaxRepeats);
    RunRequest request;
    request.pipeline = pipelines().front().name;
    request.settings.repeats = kMaxRepeats + 1;
    DeviceInfo device;
    device.totalMemoryBytes = device.freeMemoryBytes = quint64{1} << 40;
    QVERIFY(!validateRequest(request, device));
}

// A chart export that fails (here: writes past 1 KiB refused, as on a full disk) says why and
// leaves the previous file of every format as it was.
void MainWindowTest::exportOnAFullDiskKeepsThePreviousFiles() {
    MainWindow window(folder_->settings());
    window.show();
    chooseThroughWidgets(window, QStringLiteral("4096"));
    QVERIFY(runAndWait(window));
    ChartView* chart = window.charts().first();
    chart->rebuildNow();
    for (const char* suffix : {"png", "svg", "pdf"}) {
        const QString path = folder_->filePath(QStringLiteral("chart.") + suffix);
        QVERIFY(testsupport::writeFile(path, "previous export"));
        QString error;
        {
            testsupport::ScopedFileSizeLimit limit(1024);
            error = exportChart(*chart, path);
        }
        QVERIFY2(error.contains(QStringLiteral("cannot write ") + path), qPrintable(error));
        QCOMPARE(testsupport::contentsOf(path), QByteArray("previous export"));
    }
    // And without the limit, the PDF is whole.
    const QString pdf = folder_->filePath(QStringLiteral("whole.pdf"));
    QCOMPARE(exportChart(*chart, pdf), QString());
    QVERIFY(testsupport::contentsOf(pdf).trimmed().endsWith("%%EOF"));
}

QTEST_MAIN(MainWindowTest)

// The prefill recording's shape (M = 4096) takes hours on a CPU: opening it says so in the run
// panel, and a close does not keep that shape for the next start.
void MainWindowTest::aGpuSizedRecordingSaysWhatItCostsHereAndIsNotKept() {
    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    RunPanel* panel = window.runPanel();
    panel->backendCombo()->setCurrentIndex(comboIndexOf(panel->backendCombo(), "cpu"));
    QCOMPARE(window.openRecording(QStringLiteral(FUSESCOPE_SHIPPED_DIR
                                                 "/h200-mlp-prefill-4096-bf16.fusescope.json")),
             QString());
    QCOMPARE(window.runPanel()->command().request.problem.dimension("M"), std::uint64_t{4096});
    auto* status = window.runPanel()->findChild<QLabel*>(QStringLiteral("runPanelStatus"));
    QVERIFY(status);
    // Said once this CPU's speeds are in (measured by the worker when they were not known).
    QTRY_VERIFY2_WITH_TIMEOUT(status->text().contains(QStringLiteral("on this CPU")),
                              qPrintable(status->text()), 30000);
    window.close();
    const RunCommand saved = loadRunChoices(*folder_->settings());
    QCOMPARE(saved.request.pipeline, std::string("mlp"));
    QCOMPARE(saved.request.problem.dimension("M"),
             findPipeline("mlp")->defaultProblem().dimension("M"));
}

// The run estimate's calibration, before the first CPU run with a thread count, held the UI
// thread for a quarter of a second or more; the worker measures now, and the panel says so.
void MainWindowTest::theFirstCpuRunMeasuresTheCpuOffTheUiThread() {
    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    chooseThroughWidgets(window, QStringLiteral("4096"));
    const int kThreads = chooseUnmeasuredThreads(*window.runPanel());
    QVERIFY(!cpuSpeedsSettled(kThreads));
    QCOMPARE(window.runPanel()->command().request.cpuThreads, kThreads);
    int ticks = 0;
    bool measuringShown = false;
    bool measuringInTheStatusBar = false;
    QTimer tick;
    const auto lookForTheMeasuring = [&] {
        if (window.statusBar()->currentMessage().contains(QStringLiteral("Measuring this CPU")))
            measuringInTheStatusBar = true;
        for (const QLabel* label : window.runPanel()->findChildren<QLabel*>())
            if (label->isVisible() && label->text().contains(QStringLiteral("Measuring this CPU")))
                measuringShown = true;
    };
    connect(&tick, &QTimer::timeout, &tick, [&] {
        ++ticks;
        lookForTheMeasuring();
    });
    tick.start(10);
    QSignalSpy ended(&window, &MainWindow::runEnded);
    // The click returns at once: the calibration is a job of the worker like any other, and no
    // event loop turns inside the click. The run starts when the speeds are in; meanwhile this
    // thread's timer ticked and the panel said what it measured.
    QElapsedTimer clicking;
    clicking.start();
    QTest::mouseClick(window.runPanel()->runButton(), Qt::LeftButton);
    const qint64 clickMs = clicking.elapsed();
    // Said as the click starts the measuring: on a loaded machine the worker's answer can come
    // before the timer's first tick and clear it.
    lookForTheMeasuring();
    // The run has begun (its first stage is the measuring), but nothing has measured yet.
    QVERIFY(window.isRunning());
    QVERIFY(window.cpuSpeedsGate()->isMeasuring());
    QVERIFY(!window.runController()->isRunning());
    QVERIFY(!cpuSpeedsSettled(kThreads));
    QVERIFY2(clickMs < 200, qPrintable(QString::number(clickMs)));
    QVERIFY(ended.wait(kRunTimeoutMs));
    QVERIFY(ended.first().at(0).toBool());
    QVERIFY(cpuSpeedsSettled(kThreads));
    QVERIFY2(ticks >= 3, qPrintable(QString::number(ticks)));
    QVERIFY(measuringShown);
    QVERIFY(measuringInTheStatusBar);
}

// Cancel while the CPU is measured: the panel is idle at once, no run starts when the worker's
// calibration ends, and the next Run measures again or starts.
void MainWindowTest::cancelWhileTheCpuIsMeasuredStartsNoRun() {
    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    chooseThroughWidgets(window, QStringLiteral("4096"));
    if (cpuSpeedsSettled(chooseUnmeasuredThreads(*window.runPanel())))
        QSKIP("every thread count was measured before");
    QSignalSpy settled(window.cpuSpeedsGate(), &CpuSpeedsGate::settled);
    QSignalSpy calibrations(window.runController(), &RunController::jobCancelled);
    QTest::mouseClick(window.runPanel()->runButton(), Qt::LeftButton);
    QVERIFY(window.cpuSpeedsGate()->isMeasuring());
    QVERIFY(window.runPanel()->cancelButton()->isEnabled());
    QVERIFY(window.isRunning());
    QTest::mouseClick(window.runPanel()->cancelButton(), Qt::LeftButton);
    QVERIFY(!window.cpuSpeedsGate()->isMeasuring());
    QVERIFY(!window.isRunning());
    QCOMPARE(settled.count(), 1);
    QVERIFY(window.runPanel()->runButton()->isEnabled());
    QVERIFY(!window.runPanel()->cancelButton()->isEnabled());
    // The worker's job ends cancelled (its quarter of a second is not interrupted) and nothing
    // starts after it.
    QTRY_VERIFY_WITH_TIMEOUT(!calibrations.isEmpty(), 5000);
    QCOMPARE(calibrations.first().at(1).value<JobKind>(), JobKind::Calibration);
    QTest::qWait(100);
    QVERIFY(!window.isRunning());
    QVERIFY(!window.runController()->isRunning());
}

#include "main_window_test.moc"
