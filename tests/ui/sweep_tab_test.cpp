// The Size sweep tab and the model-vs-measurement panel in the main window (Qt Test, offscreen):
// a tiny CPU sweep through the tab's widgets, a sweep file written by the CLI's writer opened
// through File > Open, the sweep chart exported, the measurement panel fed synthetic recordings,
// and the headless screenshot of the tab.

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

#include "analysis/sweep.h"
#include "model/format.h"
#include "model/sweep_chart_conversion.h"
#include "model/sweep_json.h"
#include "pipelines/registry.h"
#include "support/gui_process.h"
#include "support/kernel_counts.h"
#include "support/table_texts.h"
#include "support/variant_ticks.h"
#include "support/window_test_case.h"
#include "ui/export/chart_export.h"
#include "ui/run/measurement_panel.h"
#include "ui/run/run_panel.h"
#include "ui/sweep/sweep_chart.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/window/main_window.h"
#include "worker/run_controller.h"

using namespace fusescope;

using testsupport::columnTexts;

namespace {

constexpr int kSweepTimeoutMs = 180000;

int graphsNamed(const SweepChart& chart, const QString& name) {
    int count = 0;
    for (int i = 0; i < chart.graphCount(); ++i)
        if (chart.graph(i)->name() == name &&
            chart.graph(i)->keyAxis()->axisRect() == chart.timeRect())
            ++count;
    return count;
}

// A sweep report that follows time = launches x 5 us + bytes / 100 GB/s exactly, fitted the way
// the engine fits it: what the CLI would write for such measurements.
SweepReport syntheticReport() {
    SweepReport report;
    report.device.backend = fusescope::BackendKind::Cuda;
    report.device.name = "Synthetic GPU";
    report.device.l2CacheBytes = 50u << 20;
    report.pipeline = pipelines().front().name;
    report.vectorWidth = 4;
    report.repeats = 20;
    for (std::uint64_t n = 4096; n <= (1u << 24); n *= 4) report.sizes.push_back(n);
    for (const VariantSpec& variant : pipelines().front().variants) {
        SweepSeries series;
        series.variant = variant.name;
        series.title = variant.title;
        series.launches =
            static_cast<int>(variant.kernelsFor(pipelines().front().defaultProblem()).size());
        series.bytesPerElement = 4.0 * (series.launches + 2);
        for (std::uint64_t n : report.sizes) {
            SweepPoint point;
            point.n = n;
            point.bytes = static_cast<std::uint64_t>(n * series.bytesPerElement);
            point.launches = series.launches;
            point.timeMs = series.launches * 5e-3 + point.bytes / (100.0 * 1e6);
            point.checkOk = true;
            point.rooflineGBps = 120.0;
            series.points.push_back(point);
        }
        fitSeries(series);
        report.series.push_back(series);
    }
    return report;
}

fusescope::KernelResult kernel(const QString& name, quint64 modelRead, quint64 modelWritten,
                               double dramRead, double dramWritten) {
    fusescope::KernelResult record;
    record.name = name.toStdString();
    record.timeMs = 0.01;
    record.modelBytesRead = modelRead;
    record.modelBytesWritten = modelWritten;
    record.counters =
        testing_support::counted(dramRead, dramWritten, static_cast<double>(modelRead) / 32.0,
                                 static_cast<double>(modelWritten) / 32.0);
    return record;
}

// Two-kernel unfused chain at N = 2^20 (4 MiB arrays) on a GPU with a 50 MiB L2: the scratch
// array stays in the L2, so the second kernel reads (and the first writes) almost nothing from
// DRAM. The one-kernel fused variant matches its model.
model::Recording recordingWithCounters() {
    model::Recording recording;
    recording.device.backend = fusescope::BackendKind::Cuda;
    recording.device.name = "Synthetic GPU";
    recording.device.l2CacheBytes = 50u << 20;
    const quint64 n = 1u << 20;
    const quint64 array = n * 4;
    model::VariantResult unfused;
    unfused.pipeline = "affine";
    unfused.variant = "unfused";
    unfused.problem.dimensions["N"] = n;
    unfused.backend = BackendKind::Cuda;
    unfused.modelBytesRead = 2 * array;
    unfused.modelBytesWritten = 2 * array;
    unfused.kernels = {kernel(QStringLiteral("scale"), array, array, array, 0.02 * array),
                       kernel(QStringLiteral("shift"), array, array, 0.01 * array, array)};
    unfused.countersSource = MeasurementSource::Counters;
    model::VariantResult fused = unfused;
    fused.variant = "fused";
    fused.modelBytesRead = array;
    fused.modelBytesWritten = array;
    fused.kernels = {kernel(QStringLiteral("scale_shift"), array, array, array, array)};
    recording.runs = {unfused, fused};
    return recording;
}

}  // namespace

class SweepTabTest : public testsupport::WindowTestCase {
    Q_OBJECT
  private slots:
    void tinyCpuSweepThroughTheTabsWidgets();
    void theControlsNameTheSizeThePipelineSweeps();
    void sweepFileFromTheCliWriterOpensInTheTab();
    void malformedSweepFileGivesTheReadersMessage();
    void measurementPanelShowsRowsAndReasons();
    void measurementPanelEmptyTextFollowsTheBackends();
    void measurementPanelSaysWhyCountersAreMissing();
    void headlessScreenshotOfTheSweepTab();
};

void SweepTabTest::tinyCpuSweepThroughTheTabsWidgets() {
    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    RunPanel* panel = window.runPanel();
    const PipelineSpec& pipeline = *findPipeline("swiglu");
    panel->pipelineCombo()->setCurrentIndex(
        panel->pipelineCombo()->findData(QString::fromStdString(pipeline.name)));
    panel->backendCombo()->setCurrentIndex(panel->backendCombo()->findData("cpu"));

    SweepTab* tab = window.sweepTab();
    QVERIFY(tab);
    QTabWidget* tabs = window.chartTabs();
    bool titled = false;
    for (int i = 0; i < tabs->count(); ++i)
        titled |= tabs->widget(i) == tab && tabs->tabText(i) == QStringLiteral("Size sweep");
    QVERIFY(titled);
    // The tab follows the run panel's pipeline: its variants are the ones of it that can run.
    QListWidget* list = tab->variantList();
    QCOMPARE(static_cast<std::size_t>(list->count()), runnableVariants(pipeline).size());
    const QStringList chosen = testsupport::tickAllButTheSecond(list, pipeline);
    tab->fromEdit()->clear();
    QTest::keyClicks(tab->fromEdit(), QStringLiteral("4096"));
    tab->toEdit()->clear();
    QTest::keyClicks(tab->toEdit(), QStringLiteral("2^14"));
    tab->repeatsSpin()->setValue(3);
    QCOMPARE(tab->command().request.target.backend, BackendChoice::Cpu);
    QVERIFY2(tab->runButton()->isEnabled(), qPrintable(tab->statusLabel()->text()));

    // The chart grows with every point as it is measured, not only at the end.
    QVector<int> pointsShown;
    connect(window.runController(), &RunController::sweepPointMeasured, this, [&] {
        int points = 0;
        for (const SweepChartSeries& series : tab->chart()->data().series)
            points += series.points.size();
        pointsShown << points;
    });
    QSignalSpy ended(tab, &SweepTab::sweepEnded);
    QTest::mouseClick(tab->runButton(), Qt::LeftButton);
    QVERIFY(tab->isSweeping());
    QVERIFY(tab->cancelButton()->isEnabled());
    QVERIFY(ended.wait(kSweepTimeoutMs));
    QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));
    QVERIFY(!tab->isSweeping());

    const int sizes = 3;  // 4096, 8192, 16384
    QCOMPARE(pointsShown.size(), chosen.size() * sizes);
    for (int i = 0; i < pointsShown.size(); ++i) QCOMPARE(pointsShown[i], i + 1);

    SweepChart* chart = tab->chart();
    QCOMPARE(chart->data().series.size(), chosen.size());
    for (const QString& variant : chosen)
        QVERIFY2(graphsNamed(*chart, variant) == 1, qPrintable(variant));
    QCOMPARE(chart->badgeText().contains(QStringLiteral("CPU")), true);
    QVERIFY(!chart->fitText().isEmpty());
    QTableWidget* table = tab->pointsTable();
    QCOMPARE(table->rowCount(), chosen.size() * sizes);
    for (const QString& check : columnTexts(*table, SweepTab::Check)) QCOMPARE(check, "OK");

    // For a look at the window after a GUI sweep: FUSESCOPE_SHOT_DIR=/some/folder.
    if (const QString shots = qEnvironmentVariable("FUSESCOPE_SHOT_DIR"); !shots.isEmpty()) {
        window.resize(1600, 1000);
        window.chartTabs()->setCurrentWidget(tab);
        QCoreApplication::processEvents();
        QVERIFY(window.grab().save(shots + QStringLiteral("/gui_cpu_sweep.png")));
    }

    // Save sweep writes the CLI's format, and the chart exports like every other chart.
    const QString saved = folder_->filePath(QStringLiteral("gui_sweep.json"));
    QCOMPARE(tab->saveSweepFile(saved), QString());
    QVERIFY(model::isSweepFile(saved));
    Result<model::SweepFile> reread = model::loadSweepFile(saved);
    QVERIFY2(static_cast<bool>(reread), reread ? "" : reread.status().message().c_str());
    QCOMPARE(static_cast<qsizetype>(reread->report.series.size()), chosen.size());
    const QString png = folder_->filePath(QStringLiteral("size_sweep.png"));
    QCOMPARE(exportChart(*chart, png), QString());
    QVERIFY(!QImage(png).isNull());
}

// The MLP's sweeps vary M, its weights do not grow with M, and it has no vector width: the
// controls say "From M", the vector choice is off, and no size is marked as one array in the cache.
void SweepTabTest::theControlsNameTheSizeThePipelineSweeps() {
    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    RunPanel* panel = window.runPanel();
    SweepTab* tab = window.sweepTab();
    QVERIFY(tab);
    BackendSummary summary;
    summary.cpuLastLevelCacheBytes = 32ull << 20;
    tab->setBackendSummary(summary);
    const auto labelTexts = [tab] {
        QStringList texts;
        for (QLabel* label : tab->findChildren<QLabel*>()) texts << label->text();
        return texts;
    };
    struct Expected {
        const char* pipeline;
        const char* from;
        bool vector;
        bool marksAnArray;
    };
    for (const Expected& expected :
         {Expected{"mlp", "From M", false, false}, Expected{"swiglu", "From N", true, true}}) {
        panel->pipelineCombo()->setCurrentIndex(
            panel->pipelineCombo()->findData(QString::fromLatin1(expected.pipeline)));
        panel->backendCombo()->setCurrentIndex(panel->backendCombo()->findData("cpu"));
        QCOMPARE(tab->pipeline(), QString::fromLatin1(expected.pipeline));
        const QStringList texts = labelTexts();
        QVERIFY2(texts.contains(QString::fromLatin1(expected.from)), qPrintable(texts.join('|')));
        const QList<QComboBox*> combos = tab->findChildren<QComboBox*>();
        QVERIFY(!combos.isEmpty());
        for (QComboBox* combo : combos) QCOMPARE(combo->isEnabled(), expected.vector);
        QCOMPARE(texts.join('|').contains(QStringLiteral("array fits")), expected.marksAnArray);
    }
}

void SweepTabTest::sweepFileFromTheCliWriterOpensInTheTab() {
    SweepRequest request;
    request.stepsPerOctave = 2;  // neither is the tab's default
    SweepReport report = syntheticReport();
    report.vectorWidth = 1;
    report.repeats = 7;
    const QString path = folder_->filePath(QStringLiteral("cli_sweep.json"));
    QVERIFY(model::saveSweepDocument(
        model::sweepDocument(report, request, QStringLiteral("fusescope-cli")), path));

    MainWindow window(folder_->settings());
    window.show();
    QCOMPARE(window.openRecording(path), QString());
    SweepTab* tab = window.sweepTab();
    QCOMPARE(window.chartTabs()->currentWidget(), tab);
    // The controls say what was swept: Run sweep measures the same sizes again.
    QCOMPARE(tab->fromEdit()->text(), QString::number(report.sizes.front()));
    QCOMPARE(tab->toEdit()->text(), QString::number(report.sizes.back()));
    QCOMPARE(tab->repeatsSpin()->value(), 7);
    QCOMPARE(tab->stepsSpin()->value(), 2);
    QCOMPARE(tab->vectorCombo()->currentData().toInt(), 1);
    const SweepChartData& data = tab->chart()->data();
    QCOMPARE(static_cast<std::size_t>(data.series.size()), report.series.size());
    for (const SweepSeries& series : report.series) {
        const QString name = QString::fromStdString(series.variant);
        QCOMPARE(graphsNamed(*tab->chart(), name), 1);
        for (const SweepChartSeries& shown : data.series)
            if (shown.name == name) {
                QVERIFY(shown.fit);
                QCOMPARE(shown.points.size(), static_cast<qsizetype>(series.points.size()));
                // The numbers the report was made from come back through file and chart.
                QVERIFY(qAbs(shown.fit->overheadUs - 5.0) < 0.05);
                QVERIFY(qAbs(shown.fit->bandwidthGBps - 100.0) < 0.5);
            }
    }
    QVERIFY(tab->chart()->shownL2N() > 0);
    QCOMPARE(tab->pointsTable()->rowCount(),
             static_cast<int>(report.series.size() * report.sizes.size()));
    // The fitted model is exact here: every point sits on it, and both regimes appear.
    const QStringList regimes = columnTexts(*tab->pointsTable(), SweepTab::Regime);
    QVERIFY(regimes.contains(QStringLiteral("launch")));
    QVERIFY(regimes.contains(QStringLiteral("bandwidth")));
    for (const QString& residual : columnTexts(*tab->pointsTable(), SweepTab::VsFit))
        QVERIFY2(residual.contains(QStringLiteral("0.0%")) || residual.contains("0%"),
                 qPrintable(residual));

    // Saving what was opened writes it back unchanged.
    const QString again = folder_->filePath(QStringLiteral("again.json"));
    QCOMPARE(tab->saveSweepFile(again), QString());
    QFile original(path), copy(again);
    QVERIFY(original.open(QIODevice::ReadOnly) && copy.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(copy.readAll()), QJsonDocument::fromJson(original.readAll()));
}

void SweepTabTest::malformedSweepFileGivesTheReadersMessage() {
    const QString path = folder_->filePath(QStringLiteral("bad_sweep.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "fusescope-sweep", "version": 1, "series": [{"points": "x"}]})");
    file.close();
    MainWindow window(folder_->settings());
    const QString error = window.openRecording(path);
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(QStringLiteral("bad_sweep.json")), qPrintable(error));
    QVERIFY(!window.sweepTab()->hasSweep());
}

void SweepTabTest::measurementPanelShowsRowsAndReasons() {
    MeasurementPanel panel;
    panel.show();
    QVERIFY(panel.emptyLabel()->isVisible());
    QVERIFY(panel.emptyLabel()->text().contains(QStringLiteral("Measure (GPU)")));
    QVERIFY(panel.emptyLabel()->text().contains(QStringLiteral("CUDA backend")));

    panel.setRecording(recordingWithCounters());
    QVERIFY(!panel.emptyLabel()->isVisible());
    QVERIFY(panel.table()->isVisible());
    QVERIFY(!panel.counterStatusLabel()->isVisible());
    QVERIFY2(
        panel.badgeLabel()->text().contains(model::dataSourceLabel(model::DataSource::Counters)),
        qPrintable(panel.badgeLabel()->text()));
    QTableWidget* table = panel.table();
    // Per run a total row, then its kernels: 1 + 2 for unfused, 1 + 1 for fused.
    QCOMPARE(table->rowCount(), 5);
    const QStringList kernels = columnTexts(*table, MeasurementPanel::Kernel);
    QCOMPARE(kernels.mid(1, 2), QStringList({"scale", "shift"}));
    QCOMPARE(kernels.at(4), QStringLiteral("scale_shift"));
    const QStringList reasons = columnTexts(*table, MeasurementPanel::Reasons);
    const QStringList gaps = columnTexts(*table, MeasurementPanel::Gap);
    // The unfused kernels miss about half their model bytes: the L2 explains it, in words.
    for (int row : {1, 2}) {
        QVERIFY2(gaps.at(row).startsWith(QLatin1Char('-')), qPrintable(gaps.at(row)));
        QVERIFY2(reasons.at(row).contains(QStringLiteral("L2")), qPrintable(reasons.at(row)));
    }
    // The fused kernel matches its model: a gap of 0 and nothing to explain.
    QCOMPARE(gaps.at(4), QStringLiteral("+0.0%"));
    QVERIFY(reasons.at(4).isEmpty());
    // One line a row, whatever the room: a wrapped reason once made one row fill the table.
    QVERIFY(!table->wordWrap());
    panel.resize(700, 260);
    QCoreApplication::processEvents();
    for (int row = 0; row < table->rowCount(); ++row)
        QVERIFY2(table->rowHeight(row) < 2 * table->fontMetrics().height() + 8,
                 qPrintable(QString::number(table->rowHeight(row))));
    // The reasons in full: in the row's tooltip, and under the table for the selected row.
    QCOMPARE(table->item(1, MeasurementPanel::Reasons)->toolTip().contains(QStringLiteral("L2")),
             true);
    table->setCurrentCell(1, MeasurementPanel::Kernel);
    QVERIFY2(panel.whyLabel()->text().contains(QStringLiteral("scale")) &&
                 panel.whyLabel()->text().contains(QStringLiteral("L2")),
             qPrintable(panel.whyLabel()->text()));
    QCOMPARE(table->item(1, MeasurementPanel::DramRead)->text().isEmpty(), false);
    QVERIFY(table->item(1, MeasurementPanel::SectorsRead)->text() != QStringLiteral("-"));

    // A count that moved between the counted launches shows its range beside the median, and
    // the tooltip says how many launches; one that held still shows the median alone.
    model::Recording counted = recordingWithCounters();
    KernelCounters& moved = *counted.runs[0].kernels[0].counters;
    moved.countedLaunches = 5;
    moved.dramReadSpread = CountSpread{0.5 * moved.dramBytesRead, 2.0 * moved.dramBytesRead};
    moved.dramWrittenSpread = CountSpread{moved.dramBytesWritten, moved.dramBytesWritten};
    panel.setRecording(counted);
    const QTableWidgetItem* read = table->item(1, MeasurementPanel::DramRead);
    const auto bytes = [](double value) { return model::formatBytes(quint64(value + 0.5)); };
    QCOMPARE(read->text(), QStringLiteral("%1 (%2–%3)")
                               .arg(bytes(moved.dramBytesRead), bytes(moved.dramReadSpread->low),
                                    bytes(moved.dramReadSpread->high)));
    QVERIFY2(read->toolTip().contains(QStringLiteral("Median of 5 counted launches")),
             qPrintable(read->toolTip()));
    QVERIFY2(panel.badgeLabel()->text().contains(QStringLiteral("medians of 5 launches")),
             qPrintable(panel.badgeLabel()->text()));
    QCOMPARE(table->item(1, MeasurementPanel::DramWritten)->text(), bytes(moved.dramBytesWritten));

    // A replayed recording says so on the badge.
    model::Recording replayed = recordingWithCounters();
    replayed.replayed = true;
    panel.setRecording(replayed);
    QVERIFY(panel.badgeLabel()->text().contains(model::dataSourceLabel(model::DataSource::Replay)));
}

// Without a usable GPU, "tick Measure (GPU)" sent people to a box they could not tick: the text
// follows what the backends can do, and the window passes on what its probe found.
void SweepTabTest::measurementPanelEmptyTextFollowsTheBackends() {
    MeasurementPanel panel;
    BackendSummary noGpu;
    noGpu.cudaBuilt = true;
    noGpu.cudaReason = QStringLiteral("cudaErrorInsufficientDriver");
    panel.setBackendSummary(noGpu);
    const QString withoutGpu = panel.emptyLabel()->text();
    QVERIFY2(withoutGpu.contains(QStringLiteral("needs an NVIDIA GPU")), qPrintable(withoutGpu));
    QVERIFY2(withoutGpu.contains(QStringLiteral("shipped recordings carry measurements")),
             qPrintable(withoutGpu));
    QVERIFY2(!withoutGpu.contains(QStringLiteral("tick")), qPrintable(withoutGpu));
    BackendSummary notBuilt;
    panel.setBackendSummary(notBuilt);
    QVERIFY2(panel.emptyLabel()->text().contains(QStringLiteral("no CUDA backend")),
             qPrintable(panel.emptyLabel()->text()));
    BackendSummary gpu;
    gpu.cudaBuilt = gpu.cudaUsable = true;
    gpu.cudaDeviceName = QStringLiteral("NVIDIA H200");
    panel.setBackendSummary(gpu);
    QVERIFY(panel.emptyLabel()->text().contains(QStringLiteral("tick Measure (GPU)")));

    MainWindow window(folder_->settings());
    if (!window.backendsKnown()) {
        QSignalSpy probed(&window, &MainWindow::backendsProbed);
        QVERIFY(probed.wait(30000));
    }
    QCOMPARE(window.measurementPanel()->emptyLabel()->text(),
             MeasurementPanel::emptyText(window.backendSummary()));
    if (!window.backendSummary().cudaUsable)
        QVERIFY(window.measurementPanel()->emptyLabel()->text().contains(
            QStringLiteral("needs an NVIDIA GPU")));
}

void SweepTabTest::measurementPanelSaysWhyCountersAreMissing() {
    MainWindow window(folder_->settings());
    window.show();
    model::Recording recording = recordingWithCounters();
    const QString refusal = QStringLiteral(
        "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: profiling is restricted to administrators");
    recording.counterStatus = refusal.toStdString();
    for (model::VariantResult& run : recording.runs) {
        run.countersSource.reset();
        for (fusescope::KernelResult& kernel : run.kernels) {
            kernel.counters.reset();
        }
    }
    window.setRecording(recording);
    MeasurementPanel* panel = window.measurementPanel();
    QVERIFY(panel);
    window.viewTabs()->setCurrentWidget(panel);
    QVERIFY(panel->counterStatusLabel()->isVisible());
    QVERIFY(panel->counterStatusLabel()->text().contains(refusal));
    // Said once in the window, plainly, and no table of silent zeros.
    int saying = 0;
    for (QLabel* label : window.findChildren<QLabel*>())
        if (label->isVisible() && label->text().contains(refusal)) ++saying;
    QCOMPARE(saying, 1);
    QVERIFY(!panel->table()->isVisible());
    QVERIFY(panel->emptyLabel()->isVisible());
}

void SweepTabTest::headlessScreenshotOfTheSweepTab() {
    SweepRequest request;
    const QString path = folder_->filePath(QStringLiteral("shot_sweep.json"));
    QVERIFY(model::saveSweepDocument(
        model::sweepDocument(syntheticReport(), request, QStringLiteral("fusescope-cli")), path));
    const QString png = folder_->filePath(QStringLiteral("sweep_tab.png"));
    QProcess process;
    process.setProcessEnvironment(testsupport::environmentWithoutDisplay());
    const testsupport::GuiOutcome outcome =
        testsupport::finishGui(process,
                               {QStringLiteral("--open"), path, QStringLiteral("--show-tab"),
                                QStringLiteral("Size sweep"), QStringLiteral("--screenshot"), png},
                               120000);
    QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.err));
    const QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 1000);
}

QTEST_MAIN(SweepTabTest)
#include "sweep_tab_test.moc"
