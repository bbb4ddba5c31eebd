// The Tile explorer tab (Qt Test, offscreen, no GPU): the heatmap and the roofline drawn from a
// committed tile sweep file, hover and click on its cells, the model's report without a GPU, and
// File > Open bringing a tile sweep to the explorer, and the peer comparison read whole on a
// projector.
#include <QComboBox>
#include <QFontInfo>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "layout_checks.h"
#include "model/format.h"
#include "model/tile_sweep_json.h"
#include "pipelines/registry.h"
#include "support/settings_folder.h"
#include "support/shown_window.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/explorer/tile_roofline.h"
#include "ui/export/chart_export.h"
#include "ui/run/run_panel.h"
#include "ui/text_fit/owner_text.h"
#include "ui/window/appearance.h"
#include "ui/window/main_window.h"

using namespace fusescope;

namespace {

// Hand-made to the file format: every mark (refusal, best, tie, spills, faster than the 5-kernel
// path) on a 3 x 3 grid.
QString committedSweepPath() {
    return QStringLiteral(FUSESCOPE_TEST_DATA_DIR "/tile_sweep_small.json");
}

// Written by `fusescope-cli tiles --backend cpu --shape M=24,H=128,I=128 --dtype bf16
// --grid block_m=16..64 --grid block_n=16..64 --tile 16,16,32,32 --repeat 15`: the engine's
// writer and its real (CPU) measurements, refusals and limiters.
QString cpuSweepPath() {
    return QStringLiteral(FUSESCOPE_TEST_DATA_DIR "/tile_sweep_cpu.json");
}

const tiles::TileCell* cellWith(const tiles::TileSweep& sweep, int blockM, int blockN) {
    for (const tiles::TileCell& cell : sweep.cells)
        if (cell.report.configuration.problem.tuningValue("block_m") == blockM &&
            cell.report.configuration.problem.tuningValue("block_n") == blockN)
            return &cell;
    return nullptr;
}

const TileHeatmapCell* drawnCell(const TileHeatmap& heatmap, int column, int row) {
    for (const TileHeatmapCell& cell : heatmap.data().cells)
        if (cell.column == column && cell.row == row) return &cell;
    return nullptr;
}

// The tab at 1200 x 700 on screen, showing `sweep` with its heatmap drawn now.
bool showDrawn(TileExplorerTab& tab, const tiles::TileSweep& sweep) {
    tab.resize(1200, 700);
    tab.show();
    if (!QTest::qWaitForWindowExposed(&tab)) return false;
    tab.showSweep(sweep, QStringLiteral("test file"));
    tab.heatmap()->replot(QCustomPlot::rpImmediateRefresh);
    return true;
}

BackendSummary noGpu() {
    BackendSummary summary;
    summary.cudaBuilt = false;
    summary.cudaUsable = false;
    summary.cudaReason = QStringLiteral("built without CUDA");
    summary.cpuName = QStringLiteral("test CPU");
    return summary;
}

}  // namespace

class TileExplorerTest : public QObject {
    Q_OBJECT
  private slots:
    void heatmapDrawnFromCommittedSweep_data();
    void heatmapDrawnFromCommittedSweep();
    void metricsAndAxesFollowTheChoices();
    void thePeerMetricComparesWithTriton();
    void thePeerCaptionReadsWhole_data();
    void thePeerCaptionReadsWhole();
    void clickingACellLoadsItsRun();
    void withoutGpuSaysSoAndShowsModelNumbers();
    void refusedSelectionShowsItsReason();
    void fileOpenBringsTheExplorerForward();
    void savedSweepOpensAgain();
    void heatmapExports();
    void choicesAreRemembered();
    void theProductionKernelOffersItsOwnTiles();
    void sweepsGoWhereTheRunPanelRuns();
};

void TileExplorerTest::heatmapDrawnFromCommittedSweep_data() {
    QTest::addColumn<QString>("path");
    QTest::addRow("hand-made") << committedSweepPath();
    QTest::addRow("cpu, engine's writer") << cpuSweepPath();
}

void TileExplorerTest::heatmapDrawnFromCommittedSweep() {
    QFETCH(QString, path);
    const Result<tiles::TileSweep> sweep = model::loadTileSweep(path);
    QVERIFY2(sweep, sweep ? "" : sweep.status().message().c_str());
    TileExplorerTab tab(nullptr);
    QVERIFY(showDrawn(tab, *sweep));
    TileHeatmap* heatmap = tab.heatmap();

    // The sweep's two axes on the heatmap: block_m down the side, block_n along the bottom.
    const TileHeatmapData& data = heatmap->data();
    QCOMPARE(data.yValues, QVector<int>({16, 32, 64}));
    QCOMPARE(data.xValues, QVector<int>({16, 32, 64}));
    QCOMPARE(data.cells.size(), qsizetype(sweep->cells.size()));
    int refused = 0;
    for (const tiles::TileCell& cell : sweep->cells) refused += cell.report.refusal ? 1 : 0;
    QVERIFY(refused > 0);
    QCOMPARE(heatmap->refusedMarks(), refused);

    // Every measured cell's colour is its median time; the refused one has none.
    for (const TileHeatmapCell& drawn : data.cells) {
        const tiles::TileCell* cell =
            cellWith(*sweep, data.yValues[drawn.row], data.xValues[drawn.column]);
        QVERIFY(cell);
        if (cell->measured) {
            QVERIFY(drawn.value);
            QCOMPARE(*drawn.value, cell->time.medianMs);
            QCOMPARE(heatmap->colorMap()->data()->cell(drawn.column, drawn.row),
                     cell->time.medianMs);
        } else {
            QVERIFY(!drawn.value);
            QVERIFY(std::isnan(heatmap->colorMap()->data()->cell(drawn.column, drawn.row)));
        }
        QCOMPARE(drawn.best, cell->best);
        QCOMPARE(drawn.tiedWithBest, cell->tiedWithBest);
    }
    // The 5-kernel path on the same scale, and the cells clearly faster than it outlined.
    const tiles::ReferenceTiming* unfused = baselineReference(*sweep);
    QVERIFY(unfused);
    QVERIFY(data.baselineValue);
    QCOMPARE(*data.baselineValue, unfused->time.medianMs);
    const tiles::ReferenceTiming* production = leanestReference(*sweep);
    QVERIFY(production);
    QCOMPARE(production->variant, findPipeline(sweep->request.base.pipeline)->leanestVariant);
    QVERIFY(data.leanestValue);
    QCOMPARE(*data.leanestValue, production->time.medianMs);
    int faster = 0;
    for (const TileHeatmapCell& drawn : data.cells) {
        const tiles::TileCell& cell = sweep->cells[static_cast<std::size_t>(drawn.runIndex)];
        const bool expected = cell.measured && cell.time.q3Ms < unfused->time.q1Ms;
        QCOMPARE(drawn.fasterThanBaseline, expected);
        faster += expected ? 1 : 0;
    }
    // An outline exactly where some cell is clearly faster (the CPU file has none).
    QCOMPARE(heatmap->contourSegments() >= 4, faster > 0);
    QCOMPARE(heatmap->contourSegments() == 0, faster == 0);
    if (path == committedSweepPath()) QVERIFY(faster > 0);

    // Hover: a refused cell says why; a measured one gives its tiles, numbers and limiter.
    const tiles::TileCell* refusedCell = nullptr;
    for (const tiles::TileCell& cell : sweep->cells)
        if (cell.report.refusal) refusedCell = &cell;
    QVERIFY(refusedCell);
    const int refusedRow = static_cast<int>(
        data.yValues.indexOf(refusedCell->report.configuration.problem.tuningValue("block_m")));
    const int refusedColumn = static_cast<int>(
        data.xValues.indexOf(refusedCell->report.configuration.problem.tuningValue("block_n")));
    const TileHeatmapCell* drawnRefused = drawnCell(*heatmap, refusedColumn, refusedRow);
    QVERIFY(drawnRefused);
    const QString refusedTip = heatmap->tooltipAt(heatmap->cellCentre(*drawnRefused));
    QVERIFY2(refusedTip.contains(QString::fromStdString(refusedCell->report.refusal->reason)),
             qPrintable(refusedTip));
    const auto tipOf = [&](const tiles::TileCell& cell) {
        const int row = static_cast<int>(
            data.yValues.indexOf(cell.report.configuration.problem.tuningValue("block_m")));
        const int column = static_cast<int>(
            data.xValues.indexOf(cell.report.configuration.problem.tuningValue("block_n")));
        return heatmap->tooltipAt(heatmap->cellCentre(*drawnCell(*heatmap, column, row)));
    };
    for (const tiles::TileCell& cell : sweep->cells) {
        if (!cell.measured || cell.limiters.empty()) continue;
        const QString tip = tipOf(cell);
        QVERIFY2(tip.contains(QString::fromStdString(cell.limiters.front())), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("BLOCK_M %1")
                                  .arg(cell.report.configuration.problem.tuningValue("block_m"))),
                 qPrintable(tip));
    }
    // A cell whose build was chosen by timing says which, with both times.
    int chosen = 0;
    for (const tiles::TileCell& cell : sweep->cells) {
        if (cell.report.compiled.choice.empty()) continue;
        ++chosen;
        const QString tip = tipOf(cell);
        QVERIFY2(tip.contains(QStringLiteral("build: ") +
                              QString::fromStdString(cell.report.compiled.choice)),
                 qPrintable(tip));
    }
    if (path == committedSweepPath()) QCOMPARE(chosen, 1);
    // Outside the map there is no cell.
    QVERIFY(heatmap->tooltipAt(QPointF(1, 1)).isEmpty());

    // The roofline places every measured cell.
    TileRoofline* roofline = tab.roofline();
    int measured = 0;
    for (const tiles::TileCell& cell : sweep->cells) measured += cell.measured ? 1 : 0;
    QCOMPARE(roofline->data().points.size(), qsizetype(measured));
    QVERIFY(roofline->pointsGraph());
    QCOMPARE(roofline->pointsGraph()->dataCount(), measured);
    QCOMPARE(roofline->data().copyRoofGBps, sweep->limits.copyBandwidthGBps);
    QCOMPARE(roofline->data().computeRoofTflops, sweep->limits.computeTflops);
}

void TileExplorerTest::metricsAndAxesFollowTheChoices() {
    const Result<tiles::TileSweep> sweep = model::loadTileSweep(committedSweepPath());
    QVERIFY(sweep);
    TileExplorerTab tab(nullptr);
    tab.showSweep(*sweep, QStringLiteral("test file"));
    const tiles::ReferenceTiming* unfused = baselineReference(*sweep);
    QVERIFY(unfused);

    QComboBox* metric = tab.metricCombo();
    metric->setCurrentIndex(metric->findData(static_cast<int>(TileMetric::SpeedupOverBaseline)));
    const TileHeatmapData& speedups = tab.heatmap()->data();
    QVERIFY(speedups.higherIsBetter);
    QVERIFY(speedups.baselineValue);
    QCOMPARE(*speedups.baselineValue, 1.0);
    for (const TileHeatmapCell& drawn : speedups.cells) {
        const tiles::TileCell& cell = sweep->cells[static_cast<std::size_t>(drawn.runIndex)];
        if (!cell.measured) continue;
        QVERIFY(drawn.value);
        QCOMPARE(*drawn.value, unfused->time.medianMs / cell.time.medianMs);
    }
    metric->setCurrentIndex(metric->findData(static_cast<int>(TileMetric::Registers)));
    for (const TileHeatmapCell& drawn : tab.heatmap()->data().cells) {
        const tiles::TileCell& cell = sweep->cells[static_cast<std::size_t>(drawn.runIndex)];
        QCOMPARE(drawn.value.has_value(), cell.report.compiled.known);
        if (drawn.value) QCOMPARE(*drawn.value, double(cell.report.compiled.registersPerThread));
    }
    // A parameter the sweep held fixed on the x axis: one column.
    tab.xAxisCombo()->setCurrentIndex(tab.xAxisCombo()->findData(QStringLiteral("block_h")));
    QCOMPARE(tab.heatmap()->data().xValues.size(), qsizetype(1));
    QCOMPARE(tab.heatmap()->data().yValues.size(), qsizetype(3));
}

void TileExplorerTest::thePeerMetricComparesWithTriton() {
    const QString shipped =
        QStringLiteral(FUSESCOPE_SHIPPED_RECORDINGS_DIR "/tiles-mlp-classroom-bf16-h200.json");
    const Result<tiles::TileSweep> sweep = model::loadTileSweep(shipped);
    QVERIFY2(sweep, sweep ? "" : sweep.status().message().c_str());
    QVERIFY(sweep->peer);
    TileExplorerTab tab(nullptr);
    QVERIFY(showDrawn(tab, *sweep));
    QComboBox* metric = tab.metricCombo();
    metric->setCurrentIndex(metric->findData(static_cast<int>(TileMetric::AgainstPeer)));
    const TileHeatmapData& ratios = tab.heatmap()->data();
    QVERIFY(!ratios.higherIsBetter);
    QVERIFY(ratios.emptyMessage.isEmpty());
    QVERIFY2(ratios.summary.startsWith(QStringLiteral("Triton 3.6.0 at the same tiles (")),
             qPrintable(ratios.summary));
    QVERIFY2(ratios.caption.startsWith(QStringLiteral("NVIDIA H200 \u00b7 M = 512 \u00b7 ")),
             qPrintable(ratios.caption));
    QVERIFY(ratios.baselineValue && *ratios.baselineValue == 1.0);
    QCOMPARE(ratios.baselineTitle, QStringLiteral("Triton 3.6.0's time"));
    QVERIFY(!ratios.cells.isEmpty());
    for (const TileHeatmapCell& drawn : ratios.cells) {
        const tiles::TileCell& cell = sweep->cells[static_cast<std::size_t>(drawn.runIndex)];
        QVERIFY(cell.measured && cell.peerTime);
        QVERIFY(drawn.value);
        QCOMPARE(*drawn.value, cell.time.medianMs / cell.peerTime->medianMs);
        QVERIFY2(drawn.tooltip.contains(QStringLiteral("Triton 3.6.0 at these tiles: ")),
                 qPrintable(drawn.tooltip));
        // The shipped sweep records Triton's compiled kernel at every cell it ran.
        QVERIFY(cell.peerKernel);
        QVERIFY2(drawn.tooltip.contains(
                     QStringLiteral("Triton 3.6.0's kernel: 128 threads per block · registers %1 "
                                    "per thread")
                         .arg(cell.peerKernel->registersPerThread)),
                 qPrintable(drawn.tooltip));
    }

    // A sweep without a peer says where peer times come from instead of drawing empty cells.
    const Result<tiles::TileSweep> plain = model::loadTileSweep(committedSweepPath());
    QVERIFY(plain && !plain->peer);
    tab.showSweep(*plain, QStringLiteral("test file"));
    QVERIFY2(tab.heatmap()->data().emptyMessage.contains(QStringLiteral("tiles_triton.py")),
             qPrintable(tab.heatmap()->data().emptyMessage));

    // Opened as a file, the status line says it holds the peer's times.
    QCOMPARE(tab.openTileSweepFile(shipped), QString());
    QVERIFY(tab.findChild<QLabel*>(QStringLiteral("explorerStatus"))
                ->text()
                .contains(QStringLiteral("Triton 3.6.0's times at the same tiles")));
}

void TileExplorerTest::thePeerCaptionReadsWhole_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("presentation");
    for (const char* file :
         {"tiles-mlp-classroom-bf16-h200.json", "tiles-mlp-decode1-bf16-h200.json"})
        for (const bool presentation : {false, true})
            QTest::addRow("%s%s", file, presentation ? " presentation" : "")
                << QString::fromLatin1(file) << presentation;
}

// The peer's summary is what the metric "time ÷ the peer's" is read for: on a projector, in the
// normal and the presentation layout, it shows whole with the device, shape and other parameters,
// and the map under them keeps room for its cells. A 1280x720 screen at scale 1 and a 1920x1080 one
// at 150 % both give the window 1280x720 logical pixels; ctest runs this at both scales.
void TileExplorerTest::thePeerCaptionReadsWhole() {
    QFETCH(QString, file);
    QFETCH(bool, presentation);
    testsupport::SettingsFolder folder;
    QVERIFY(folder.isValid());
    MainWindow window(folder.settings());
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    // As `--presentation --open FILE` starts: the explorer, brought forward, fills the layout.
    if (presentation) window.setPresentation(true, false);
    QCOMPARE(window.openRecording(QStringLiteral(FUSESCOPE_SHIPPED_RECORDINGS_DIR "/") + file),
             QString());
    TileExplorerTab* tab = window.tileExplorer();
    QCOMPARE(window.chartTabs()->currentWidget(), tab);
    TileHeatmap* heatmap = tab->heatmap();
    const auto drawnWith = [&](TileMetric chosen) {
        QComboBox* metric = tab->metricCombo();
        metric->setCurrentIndex(metric->findData(static_cast<int>(chosen)));
        testsupport::settleLayouts();
        QTest::qWait(50);
        heatmap->replot(QCustomPlot::rpImmediateRefresh);
    };
    drawnWith(TileMetric::Time);
    const QRect timeMap = heatmap->axisRect()->rect();
    drawnWith(TileMetric::AgainstPeer);
    if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
        window.grab().save(QStringLiteral("%1/peer-caption-%2%3-scale%4.png")
                               .arg(shots, file, presentation ? "-presentation" : "")
                               .arg(window.devicePixelRatioF()));

    QStringList problems;
    // Every word under the title on screen (the peer's summary, the device, the shape and the
    // other parameters): the fitter wraps the text at its separators (and spaces), elides nothing.
    const auto words = [](QString text) {
        text.replace(QLatin1Char('\n'), QLatin1Char(' ')).remove(QStringLiteral(" \u00b7 "));
        return text.simplified().remove(QLatin1Char(' '));
    };
    QStringList said;
    qsizetype lines = 0;
    for (QCPLayoutElement* element : heatmap->plotLayout()->elements(true)) {
        auto* text = qobject_cast<QCPTextElement*>(element);
        if (!text || text == heatmap->titleElement() || !text->visible()) continue;
        const QString full = text->property(text_fit::kFullText).toString();
        said << full;
        lines += text->text().count(QLatin1Char('\n')) + 1;
        if (text->text().contains(QChar(0x2026)) || words(text->text()) != words(full))
            problems << QStringLiteral("'%1' is shown as '%2'").arg(full, text->text());
        if (presentation && QFontInfo(text->font()).pixelSize() < kPresentationTextPixels)
            problems << QStringLiteral("'%1' is %2 px")
                            .arg(full)
                            .arg(QFontInfo(text->font()).pixelSize());
    }
    const QString all = said.join(QStringLiteral(" \u00b7 "));
    QVERIFY2(all.startsWith(QStringLiteral("Triton 3.6.0 at the same tiles (")) &&
                 all.contains(QStringLiteral("NVIDIA H200 \u00b7 M = ")),
             qPrintable(all));
    // The colour bar's numbers and its label are read from the back row too: its axis is in a
    // rect of its own, outside the plot's layout.
    if (presentation) {
        const QCPAxis* bar = heatmap->colorScale()->axis();
        const int ticks = QFontInfo(bar->tickLabelFont()).pixelSize();
        const int label = QFontInfo(bar->labelFont()).pixelSize();
        if (ticks < kPresentationTextPixels)
            problems << QStringLiteral("the colour bar's tick labels are %1 px").arg(ticks);
        if (label < kPresentationTextPixels)
            problems << QStringLiteral("the colour bar's label '%1' is %2 px")
                            .arg(bar->label())
                            .arg(label);
    }
    problems << testing::plotProblems(*heatmap);
    // The map under it: each row of cells at least two lines of its labels high.
    const double rowHeight =
        double(heatmap->axisRect()->height()) / double(heatmap->data().yValues.size());
    const double line = QFontMetricsF(heatmap->yAxis->tickLabelFont()).height();
    if (rowHeight < 2 * line)
        problems << QStringLiteral("the map's rows are %1 px high, its labels %2 px")
                        .arg(rowHeight)
                        .arg(line);
    // The choices above the map in sight.
    problems << testing::buttonProblems(
        window, {QStringLiteral("explorerMetric"), QStringLiteral("explorerOthers"),
                 QStringLiteral("explorerXAxis"), QStringLiteral("explorerYAxis")});
    problems << testing::labelProblems(window);
    qInfo("heatmap %dx%d, map %dx%d, %lld lines under the title", heatmap->width(),
          heatmap->height(), heatmap->axisRect()->width(), heatmap->axisRect()->height(),
          static_cast<long long>(lines));
    // Back to the time: the summary's room goes with it.
    drawnWith(TileMetric::Time);
    if (heatmap->axisRect()->rect() != timeMap)
        problems << QStringLiteral("the time's map is %1 after the peer's, %2 before")
                        .arg(testing::describe(heatmap->axisRect()->rect()),
                             testing::describe(timeMap));
    if (!problems.isEmpty()) qInfo().noquote() << problems.join(QLatin1Char('\n'));
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problems, the first: %2")
                                                .arg(problems.size())
                                                .arg(problems.value(0))));
}

void TileExplorerTest::clickingACellLoadsItsRun() {
    const Result<tiles::TileSweep> sweep = model::loadTileSweep(committedSweepPath());
    QVERIFY(sweep);
    TileExplorerTab tab(nullptr);
    QVERIFY(showDrawn(tab, *sweep));
    TileHeatmap* heatmap = tab.heatmap();
    const TileHeatmapCell* best = nullptr;
    for (const TileHeatmapCell& cell : heatmap->data().cells)
        if (cell.best) best = &cell;
    QVERIFY(best);
    const tiles::TileCell& cell = sweep->cells[static_cast<std::size_t>(best->runIndex)];
    QSignalSpy chosen(&tab, &TileExplorerTab::recordingChosen);
    QTest::mouseClick(heatmap, Qt::LeftButton, Qt::NoModifier,
                      heatmap->cellCentre(*best).toPoint());
    QCOMPARE(chosen.size(), 1);
    const auto recording = chosen.first().first().value<model::Recording>();
    QVERIFY(!recording.runs.empty());
    const model::VariantResult& run = recording.runs.front();
    QCOMPARE(run.variant, cell.report.configuration.variant);
    QCOMPARE(run.problem, cell.report.configuration.problem);
    QCOMPARE(run.timeMs, cell.time.medianMs);
    QVERIFY(run.modelBytesRead + run.modelBytesWritten > 0);
    // The references ride along, so the results compare the cell with the 5-kernel path.
    QCOMPARE(recording.runs.size(), qsizetype(1 + sweep->references.size()));
    // The selectors follow the clicked cell.
    QCOMPARE(tab.configuration(), cell.report.configuration);
}

void TileExplorerTest::withoutGpuSaysSoAndShowsModelNumbers() {
    TileExplorerTab tab(nullptr);
    tab.setBackendSummary(noGpu());
    QVERIFY(!tab.liveAvailable());
    QVERIFY2(tab.gpuNoteLabel()->text().contains(QStringLiteral("needs an NVIDIA GPU")),
             qPrintable(tab.gpuNoteLabel()->text()));
    // The driver's words only on demand: the start page says it once, in plain words.
    QVERIFY(!tab.gpuNoteLabel()->text().contains(noGpu().cudaReason));
    QVERIFY(tab.gpuNoteLabel()->toolTip().contains(noGpu().cudaReason));
    QVERIFY(!tab.runButton()->isEnabled());
    QVERIFY(!tab.sweepButton()->isEnabled());
    QVERIFY(!tab.runButton()->toolTip().isEmpty());
    // The model's numbers for the GPU chosen from the table.
    tab.presetCombo()->setCurrentIndex(tab.presetCombo()->findData(QStringLiteral("decode-1")));
    QVERIFY(tab.shownReport());
    const tiles::ResourceReport& report = *tab.shownReport();
    QCOMPARE(report.configuration.problem.dimension("M"), std::uint64_t{1});
    QVERIFY(report.modelBytes > 0);
    QVERIFY(report.modelFlops > 0);
    QVERIFY(report.limits.multiprocessors > 0);
    QVERIFY(report.launch.blocks > 0);
    QVERIFY2(tab.reportLabel()->text().contains(QStringLiteral("SMs")),
             qPrintable(tab.reportLabel()->text()));
    // Shared memory in the unit the GPU states its limit in, and a refusal names: KiB.
    QVERIFY2(tab.reportLabel()->text().contains(
                 model::formatKibibytes(report.launch.dynamicSharedBytes) +
                 QStringLiteral(" dynamic shared memory")),
             qPrintable(tab.reportLabel()->text()));
    // Another GPU from the table changes the SM count the grid is held against.
    const int smsBefore = report.limits.multiprocessors;
    bool changed = false;
    for (int index = 0; index < tab.gpuCombo()->count() && !changed; ++index) {
        tab.gpuCombo()->setCurrentIndex(index);
        changed = tab.shownReport()->limits.multiprocessors != smsBefore;
    }
    QVERIFY(changed);
}

void TileExplorerTest::refusedSelectionShowsItsReason() {
    TileExplorerTab tab(nullptr);
    tab.setBackendSummary(noGpu());
    // The largest tiles on the smallest problem: refused by the model, with its reason.
    tab.presetCombo()->setCurrentIndex(tab.presetCombo()->findData(QStringLiteral("decode-1")));
    for (const char* name : {"block_m", "block_n", "block_h", "block_i"}) {
        QComboBox* combo = tab.tileCombo(name);
        QVERIFY(combo);
        combo->setCurrentIndex(combo->count() - 1);
    }
    QVERIFY(tab.shownReport());
    QVERIFY(tab.shownReport()->refusal);
    QVERIFY(!tab.refusalLabel()->isHidden());
    QVERIFY2(tab.refusalLabel()->text().contains(
                 QString::fromStdString(tab.shownReport()->refusal->reason)),
             qPrintable(tab.refusalLabel()->text()));
}

void TileExplorerTest::fileOpenBringsTheExplorerForward() {
    testsupport::SettingsFolder folder;
    QVERIFY(folder.isValid());
    MainWindow window(folder.settings());
    QVERIFY(testsupport::showExposed(window));
    QVERIFY(model::isTileSweepFile(committedSweepPath()));
    QCOMPARE(window.openRecording(committedSweepPath()), QString());
    QCOMPARE(window.chartTabs()->currentWidget(), window.tileExplorer());
    QVERIFY(window.tileExplorer()->hasSweep());
    QVERIFY(window.windowTitle().contains(QStringLiteral("tile_sweep_small.json")));
    // A click on a measured cell shows that run in the window's results.
    TileHeatmap* heatmap = window.tileExplorer()->heatmap();
    heatmap->replot(QCustomPlot::rpImmediateRefresh);
    const TileHeatmapCell* measured = nullptr;
    for (const TileHeatmapCell& cell : heatmap->data().cells)
        if (cell.value && cell.refusal.isEmpty()) measured = &cell;
    QVERIFY(measured);
    QTest::mouseClick(heatmap, Qt::LeftButton, Qt::NoModifier,
                      heatmap->cellCentre(*measured).toPoint());
    QVERIFY(!window.recording().runs.empty());
    QCOMPARE(window.recording().runs.front().timeMs, *measured->value);
}

void TileExplorerTest::savedSweepOpensAgain() {
    const Result<tiles::TileSweep> sweep = model::loadTileSweep(committedSweepPath());
    QVERIFY(sweep);
    TileExplorerTab tab(nullptr);
    QVERIFY(!tab.saveButton()->isEnabled());
    QVERIFY(!tab.saveTileSweepFile(QStringLiteral("unused.json")).isEmpty());  // nothing yet
    tab.showSweep(*sweep, QStringLiteral("test file"));
    QVERIFY(tab.saveButton()->isEnabled());
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("again.json"));
    QCOMPARE(tab.saveTileSweepFile(path), QString());
    TileExplorerTab other(nullptr);
    QCOMPARE(other.openTileSweepFile(path), QString());
    QCOMPARE(other.sweep().cells.size(), sweep->cells.size());
    QCOMPARE(other.heatmap()->data().cells.size(), tab.heatmap()->data().cells.size());
    for (qsizetype i = 0; i < tab.heatmap()->data().cells.size(); ++i)
        QCOMPARE(other.heatmap()->data().cells[i].value, tab.heatmap()->data().cells[i].value);
}

void TileExplorerTest::heatmapExports() {
    const Result<tiles::TileSweep> sweep = model::loadTileSweep(committedSweepPath());
    QVERIFY(sweep);
    TileExplorerTab tab(nullptr);
    tab.showSweep(*sweep, QStringLiteral("test file"));
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    for (const char* suffix : {"png", "svg", "pdf"}) {
        const QString path = directory.filePath(QStringLiteral("heatmap.") + suffix);
        QCOMPARE(exportChart(*tab.heatmap(), path), QString());
        QVERIFY(QFileInfo(path).size() > 1000);
    }
}

void TileExplorerTest::choicesAreRemembered() {
    testsupport::SettingsFolder folder;
    QVERIFY(folder.isValid());
    QSettings* settings = folder.settings();
    tiles::TileConfiguration chosen;
    tiles::TileSweepRequest request;
    {
        TileExplorerTab tab(nullptr);
        tab.setSettings(settings);
        tab.presetCombo()->setCurrentIndex(tab.presetCombo()->findData(QStringLiteral("decode-4")));
        tab.dtypeCombo()->setCurrentIndex(tab.dtypeCombo()->findData(int(DType::Float32)));
        tab.tileCombo("block_n")->setCurrentIndex(tab.tileCombo("block_n")->findData(128));
        tab.rangeToCombo("block_i")->setCurrentIndex(tab.rangeToCombo("block_i")->count() - 1);
        tab.repeatsSpin()->setValue(7);
        tab.metricCombo()->setCurrentIndex(tab.metricCombo()->findData(int(TileMetric::Occupancy)));
        chosen = tab.configuration();
        request = tab.sweepRequest();
    }
    TileExplorerTab again(nullptr);
    QVERIFY(!(again.configuration() == chosen));  // the defaults differ from what was chosen
    again.setSettings(settings);
    QCOMPARE(again.configuration(), chosen);
    QCOMPARE(again.sweepRequest(), request);
    QCOMPARE(again.metricCombo()->currentData().toInt(), int(TileMetric::Occupancy));
    QCOMPARE(again.presetCombo()->currentData().toString(), QStringLiteral("decode-4"));
}

// Choosing the production fusion shows its tiles (from its declaration) and hides the lesson's;
// its report, sweep axes and refusals are its own.
void TileExplorerTest::theProductionKernelOffersItsOwnTiles() {
    TileExplorerTab tab(nullptr);
    tab.setBackendSummary(noGpu());
    tab.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tab));
    QComboBox* kernel = tab.kernelCombo();
    QVERIFY(kernel);
    QCOMPARE(kernel->currentData().toString(), QStringLiteral("lesson_fused"));
    const int production = kernel->findData(QStringLiteral("production"));
    QVERIFY(production >= 0);
    QVERIFY(tab.tileCombo("tile_m"));
    QVERIFY(!tab.tileCombo("tile_m")->isVisible());
    QVERIFY(tab.tileCombo("block_m")->isVisible());

    tab.presetCombo()->setCurrentIndex(tab.presetCombo()->findData(QStringLiteral("prefill-512")));
    tab.dtypeCombo()->setCurrentIndex(tab.dtypeCombo()->findData(int(DType::Bfloat16)));
    kernel->setCurrentIndex(production);
    QCOMPARE(tab.configuration().variant, std::string("production"));
    QVERIFY(tab.tileCombo("tile_m")->isVisible());
    QVERIFY(!tab.tileCombo("block_m")->isVisible());
    // The values offered are the declaration's.
    const TuningSpec* tileI = findPipeline("mlp")->findTuning("tile_i");
    QVERIFY(tileI);
    QCOMPARE(tab.tileCombo("tile_i")->count(), static_cast<int>(tileI->allowed.size()));
    tab.tileCombo("tile_m")->setCurrentIndex(tab.tileCombo("tile_m")->findData(64));
    tab.tileCombo("tile_i")->setCurrentIndex(tab.tileCombo("tile_i")->findData(128));
    QVERIFY(tab.shownReport());
    QVERIFY(!tab.shownReport()->refusal);
    QCOMPARE(tab.shownReport()->launch.kernelName, std::string("mlp_gate_up_silu_tiled"));
    QCOMPARE(tab.shownReport()->launch.blocks, std::uint64_t{8 * 112});
    // The sweep spans the production tiles only, and the heatmap's axes are them.
    const tiles::TileSweepRequest request = tab.sweepRequest();
    QVERIFY(!request.axes.empty());
    for (const tiles::TileAxis& axis : request.axes)
        QVERIFY2(axis.tuning == "tile_m" || axis.tuning == "tile_i", axis.tuning.c_str());
    QVERIFY(tab.xAxisCombo()->findData(QStringLiteral("block_m")) < 0);
    QVERIFY(tab.xAxisCombo()->findData(QStringLiteral("tile_i")) >= 0);
    // float32 takes only the precompiled tiles: refused, with the reason.
    tab.dtypeCombo()->setCurrentIndex(tab.dtypeCombo()->findData(int(DType::Float32)));
    QVERIFY(tab.shownReport()->refusal);
    QVERIFY2(tab.refusalLabel()->text().contains(QStringLiteral("float32")),
             qPrintable(tab.refusalLabel()->text()));
}

// The run panel's backend and GPU, both, reach the explorer's sweeps: on a host with two GPUs,
// a sweep goes to the GPU the user picked, not to GPU 0.
void TileExplorerTest::sweepsGoWhereTheRunPanelRuns() {
    testsupport::SettingsFolder folder;
    QVERIFY(folder.isValid());
    MainWindow window(folder.settings());
    RunPanel* panel = window.runPanel();
    BackendSummary twoGpus;
    twoGpus.cudaBuilt = true;
    twoGpus.cudaUsable = true;
    twoGpus.cudaDeviceName = QStringLiteral("NVIDIA H200");
    twoGpus.cudaDevices = {QStringLiteral("NVIDIA H200"), QStringLiteral("NVIDIA H200")};
    panel->setBackendSummary(twoGpus);
    panel->backendCombo()->setCurrentIndex(panel->backendCombo()->findData(QStringLiteral("cuda")));
    panel->deviceCombo()->setCurrentIndex(1);
    const Target chosen{BackendChoice::Cuda, 1};
    QVERIFY(panel->command().request.target == chosen);
    QVERIFY(window.tileExplorer()->sweepRequest().target == chosen);
    panel->deviceCombo()->setCurrentIndex(0);
    QCOMPARE(window.tileExplorer()->sweepRequest().target.cudaDevice, std::optional<int>(0));
    panel->backendCombo()->setCurrentIndex(panel->backendCombo()->findData(QStringLiteral("cpu")));
    QVERIFY(window.tileExplorer()->sweepRequest().target == (Target{BackendChoice::Cpu, {}}));
}

QTEST_MAIN(TileExplorerTest)
#include "tile_explorer_test.moc"
