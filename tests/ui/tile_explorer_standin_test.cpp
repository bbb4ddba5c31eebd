// The Tile explorer's sweeps through the real worker and controller with a stand-in compiler and
// executor (tests/fakes/fake_tile_engine.h) in the worker's tile path (Qt Test, offscreen, no
// GPU): progress and ETA, cancelling while compiling or while measuring, a rejected compile as
// a failed cell with the compiler's log, queued reports superseded, and the main window's Run and
// Cancel while a tile sweep holds the worker. The stand-in holds at a chosen step until the test
// releases or cancels it, so nothing depends on how fast this machine is.
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <memory>

#include "fakes/fake_tile_engine.h"
#include "support/window_test_case.h"
#include "tile_explorer_sweep_fixture.h"
#include "tiles/tile_model.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/run/run_panel.h"
#include "ui/window/main_window.h"
#include "worker/run_controller.h"

using namespace fusescope;

Q_DECLARE_METATYPE(fusescope::testing::FakeTileEngine::Step)
using namespace fusescope::testing;  // the sweep fixture and the stand-in engine

namespace {

constexpr int kTimeoutMs = 60000;

// The tab ready to sweep the four tiles 16 and 32 of block_m and block_n on 64 x 64 x 64.
void prepare(TileExplorerTab& tab, RunController& controller) {
    prepareSweep(tab, controller, 1, 5, 64);
}

std::shared_ptr<FakeTileEngine> standIn(RunController& controller,
                                        FakeTileEngine::Script script = {}) {
    auto engine = std::make_shared<FakeTileEngine>(std::move(script));
    controller.setTileEngine(engine);
    return engine;
}

// The stand-in, holding before its `count`th `step` (0: the first), on the tab ready to sweep.
std::shared_ptr<FakeTileEngine> heldStandIn(TileExplorerTab& tab, RunController& controller,
                                            FakeTileEngine::Step step, int count) {
    auto engine = standIn(controller);
    engine->holdBefore(step, count);
    prepare(tab, controller);
    return engine;
}

bool arrived(QSignalSpy& spy) {
    return fusescope::testing::arrived(spy, kTimeoutMs);
}

// The main window on the CPU backend, with `settings`.
struct WindowOnCpu {
    explicit WindowOnCpu(QSettings* settings)
        : window(settings),
          panel(window.runPanel()),
          tab(*window.tileExplorer()),
          controller(*window.runController()) {
        panel->backendCombo()->setCurrentIndex(
            panel->backendCombo()->findData(QStringLiteral("cpu")));
    }
    MainWindow window;
    RunPanel* panel;
    TileExplorerTab& tab;
    RunController& controller;
};

// The tab is idle again: nothing running, Sweep offered, Cancel not.
void verifyIdle(const TileExplorerTab& tab, const RunController& controller) {
    QVERIFY(!tab.isSweeping());
    QVERIFY(!controller.isRunning());
    QVERIFY(tab.sweepButton()->isEnabled());
    QVERIFY(!tab.cancelButton()->isEnabled());
}

}  // namespace

class TileExplorerStandInTest : public testsupport::WindowTestCase {
    Q_OBJECT
  private slots:
    void progressIsMonotonicWithAnEtaAndCellsCarryTheStandInsTimes();
    void cancelKeepsTheCellsMeasuredBeforeIt_data();
    void cancelKeepsTheCellsMeasuredBeforeIt();
    void rejectedCompileIsAFailedCellWithTheLog();
    void reportsQueuedBehindASweepAreSuperseded();
    void mainWindowRunWaitsForATileSweepAndCancelStopsIt();
    void mainWindowGoesIdleWhenTheTileSweepFinishes();
    void mainWindowCancelStopsARunOfOneConfiguration();
};

void TileExplorerStandInTest::progressIsMonotonicWithAnEtaAndCellsCarryTheStandInsTimes() {
    RunController controller;
    TileExplorerTab tab(&controller);
    FakeTileEngine::Script script;
    script.compileDelayMs = 40;  // longer than the worker's progress interval: each step shows
    script.measureDelayMs = 40;
    const auto engine = standIn(controller, script);
    prepare(tab, controller);
    const std::vector<tiles::TileConfiguration> configurations =
        tiles::configurationsOf(tab.sweepRequest());
    QCOMPARE(configurations.size(), std::size_t{4});

    QSignalSpy progress(&controller, &RunController::tileSweepProgress);
    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    QStringList statusTexts;  // what the tab showed after each progress signal
    connect(&controller, &RunController::tileSweepProgress, &tab,
            [&] { statusTexts << tab.statusLabel()->text(); });
    tab.startSweep();
    QVERIFY(arrived(ended));
    QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));

    QVERIFY2(progress.size() >= 4, qPrintable(QString::number(progress.size())));
    double lastFraction = -1.0;
    double lastEta = std::numeric_limits<double>::infinity();
    int withEta = 0;
    for (const QList<QVariant>& signal : progress) {
        const auto step = signal.first().value<TileSweepProgress>();
        QVERIFY2(step.fraction >= lastFraction, qPrintable(step.stage));  // never backwards
        lastFraction = step.fraction;
        if (step.etaSeconds < 0) continue;
        QVERIFY2(step.etaSeconds <= lastEta, qPrintable(step.stage));  // never grows
        lastEta = step.etaSeconds;
        withEta += step.etaSeconds > 0 ? 1 : 0;
    }
    QCOMPARE(lastFraction, 1.0);
    QVERIFY(withEta >= 2);
    QVERIFY2(statusTexts.filter(QStringLiteral(" left")).size() >= 2,
             qPrintable(statusTexts.join(QStringLiteral(" | "))));
    QCOMPARE(tab.progressBar()->value(), tab.progressBar()->maximum());
    verifyIdle(tab, controller);

    // Every cell measured by the stand-in, with its time, on the heatmap.
    QCOMPARE(engine->measured(), 4);
    QCOMPARE(measuredCells(tab.sweep()), 4);
    for (const tiles::TileCell& cell : tab.sweep().cells)
        QCOMPARE(cell.time.medianMs, FakeTileEngine::medianMsOf(cell.report.configuration));
    for (const TileHeatmapCell& drawn : tab.heatmap()->data().cells) {
        QVERIFY(drawn.value);
        const auto& cell = tab.sweep().cells[static_cast<std::size_t>(drawn.runIndex)];
        QCOMPARE(*drawn.value, cell.time.medianMs);
    }
}

void TileExplorerStandInTest::cancelKeepsTheCellsMeasuredBeforeIt_data() {
    QTest::addColumn<FakeTileEngine::Step>("heldStep");
    QTest::addColumn<int>("compiled");
    QTest::addColumn<int>("measured");
    // Held before the third compile: nothing measured yet. Held before the third measurement:
    // every tile compiled, two measured.
    QTest::newRow("while compiling") << FakeTileEngine::Step::Compile << 2 << 0;
    QTest::newRow("while measuring") << FakeTileEngine::Step::Measure << 4 << 2;
}

void TileExplorerStandInTest::cancelKeepsTheCellsMeasuredBeforeIt() {
    QFETCH(FakeTileEngine::Step, heldStep);
    QFETCH(int, compiled);
    QFETCH(int, measured);
    RunController controller;
    TileExplorerTab tab(&controller);
    const auto engine = heldStandIn(tab, controller, heldStep, 2);
    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    QSignalSpy cells(&controller, &RunController::tileCellMeasured);
    tab.startSweep();
    QTRY_VERIFY_WITH_TIMEOUT(engine->isHolding(), kTimeoutMs);
    // The cells before the hold reach the heatmap while the sweep still runs.
    QTRY_COMPARE_WITH_TIMEOUT(cells.size(), qsizetype(measured), kTimeoutMs);
    QCOMPARE(drawnCells(*tab.heatmap()), measured);
    QVERIFY(tab.isSweeping());
    QVERIFY(tab.cancelButton()->isEnabled());
    QVERIFY(!tab.sweepButton()->isEnabled());
    tab.cancelSweep();
    QVERIFY(arrived(ended));
    QVERIFY(!ended.first().at(0).toBool());
    QCOMPARE(ended.first().at(1).toString(),
             QStringLiteral("Cancelled after %1 of 4 configurations").arg(measured));
    QCOMPARE(engine->compiled(), compiled);
    QCOMPARE(engine->measured(), measured);
    QCOMPARE(cells.size(), qsizetype(measured));
    QVERIFY(tab.sweep().cancelled);
    QCOMPARE(tab.sweep().cells.size(), std::size_t{4});  // the grid asked for stays
    QCOMPARE(measuredCells(tab.sweep()), measured);
    verifyIdle(tab, controller);
}

void TileExplorerStandInTest::rejectedCompileIsAFailedCellWithTheLog() {
    RunController controller;
    TileExplorerTab tab(&controller);
    prepare(tab, controller);
    const std::vector<tiles::TileConfiguration> configurations =
        tiles::configurationsOf(tab.sweepRequest());
    FakeTileEngine::Script script;
    script.failingCompiles = {tiles::tilesText(configurations[1])};
    script.compileLog = "error: identifier \"wmma_bad\" is undefined";
    const auto engine = standIn(controller, script);
    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    tab.startSweep();
    QVERIFY(arrived(ended));
    QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));
    QCOMPARE(measuredCells(tab.sweep()), 3);
    const tiles::TileCell& rejected = tab.sweep().cells[1];
    QVERIFY(!rejected.measured);
    QVERIFY(rejected.report.refusal);
    QCOMPARE(rejected.report.refusal->kind, tiles::RefusalKind::CompileFailed);
    QCOMPARE(rejected.report.refusal->reason, engine->compileFailureReason());
    // On the heatmap: a refused cell (hatched, crossed) whose hover names the compiler's log.
    const TileHeatmapCell* drawn = nullptr;
    for (const TileHeatmapCell& cell : tab.heatmap()->data().cells)
        if (cell.runIndex == 1) drawn = &cell;
    QVERIFY(drawn);
    QVERIFY(!drawn->value);
    QVERIFY2(drawn->refusal.contains(QStringLiteral("wmma_bad")), qPrintable(drawn->refusal));
    QVERIFY2(drawn->tooltip.contains(QStringLiteral("wmma_bad")), qPrintable(drawn->tooltip));
    QCOMPARE(tab.heatmap()->refusedMarks(), 1);
}

void TileExplorerStandInTest::reportsQueuedBehindASweepAreSuperseded() {
    RunController controller;
    TileExplorerTab tab(&controller);
    const auto engine = heldStandIn(tab, controller, FakeTileEngine::Step::Measure, 0);
    QSignalSpy reports(&controller, &RunController::tileReportReady);
    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    tab.startSweep();
    QTRY_VERIFY_WITH_TIMEOUT(engine->isHolding(), kTimeoutMs);
    // Reports asked before the sweep was posted were answered before the worker reached the
    // hold: their signals are queued by now. Deliver them, then count from here.
    QCoreApplication::processEvents();
    reports.clear();
    // While the worker holds the sweep, the user goes through every BLOCK_I and back to
    // BLOCK_H 64: each change asks for a report while the previous one still waits.
    const int asked = goThroughEveryBlockI(tab);
    QVERIFY2(asked >= 3, qPrintable(QString::number(asked)));
    const tiles::TileConfiguration wanted = tab.configuration();
    QVERIFY(engine->isHolding());
    QVERIFY(reports.isEmpty());  // all of them wait behind the sweep
    engine->release();
    verifyOnlyTheNewestReportAnswered(tab, ended, reports, wanted, kTimeoutMs);
}

// The main window with a tile sweep holding the worker: Run waits (disabled, with the reason),
// Cancel in the run panel stops the sweep, and both return to idle.
void TileExplorerStandInTest::mainWindowRunWaitsForATileSweepAndCancelStopsIt() {
    WindowOnCpu fixture(folder_->settings());
    auto& [window, panel, tab, controller] = fixture;
    const auto engine = heldStandIn(tab, controller, FakeTileEngine::Step::Measure, 1);
    QVERIFY(panel->runButton()->isEnabled());
    QVERIFY(!panel->cancelButton()->isEnabled());

    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    QSignalSpy runsEnded(&window, &MainWindow::runEnded);
    tab.startSweep();
    QTRY_VERIFY_WITH_TIMEOUT(engine->isHolding(), kTimeoutMs);
    QVERIFY(!panel->runButton()->isEnabled());
    QVERIFY2(panel->runButton()->toolTip().contains(QStringLiteral("tile sweep")),
             qPrintable(panel->runButton()->toolTip()));
    QVERIFY(panel->cancelButton()->isEnabled());
    // Ctrl+R does nothing silently: the window says why and starts no run.
    window.startRun();
    QVERIFY(tab.isSweeping());
    QVERIFY(runsEnded.isEmpty());

    QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
    QVERIFY(arrived(ended));
    QVERIFY(!ended.first().at(0).toBool());
    QVERIFY(!tab.isSweeping());
    QVERIFY(!controller.isRunning());
    QVERIFY(panel->runButton()->isEnabled());
    QVERIFY(!panel->cancelButton()->isEnabled());
    QVERIFY(!panel->isBusyElsewhere());
    bool cancellingShown = false;
    for (const QLabel* label : panel->findChildren<QLabel*>())
        cancellingShown = cancellingShown || label->text().contains(QStringLiteral("Cancelling"));
    QVERIFY(!cancellingShown);
    QVERIFY(runsEnded.isEmpty());
    verifyIdle(tab, controller);
}

void TileExplorerStandInTest::mainWindowGoesIdleWhenTheTileSweepFinishes() {
    WindowOnCpu fixture(folder_->settings());
    auto& [window, panel, tab, controller] = fixture;
    const auto engine = heldStandIn(tab, controller, FakeTileEngine::Step::Measure, 0);
    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    tab.startSweep();
    QTRY_VERIFY_WITH_TIMEOUT(engine->isHolding(), kTimeoutMs);
    QVERIFY(panel->isBusyElsewhere());
    QVERIFY(!panel->runButton()->isEnabled());
    engine->release();
    QVERIFY(arrived(ended));
    QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));
    QVERIFY(!panel->isBusyElsewhere());
    QVERIFY(panel->runButton()->isEnabled());
    QVERIFY(!panel->cancelButton()->isEnabled());
    // And a run of the run panel goes as usual afterwards.
    QSignalSpy runsEnded(&window, &MainWindow::runEnded);
    panel->elementCountEdit()->setText(QStringLiteral("4096"));
    panel->repeatsSpin()->setValue(1);
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    QVERIFY(window.isRunning() || !runsEnded.isEmpty());
    QVERIFY(arrived(runsEnded));
    QVERIFY2(runsEnded.first().at(0).toBool(), qPrintable(runsEnded.first().at(1).toString()));
}

// "Run this configuration" holds the worker too: the run panel's Cancel stops it and both the
// panel and the tab go idle (the run's own cancel path, not the sweep's).
void TileExplorerStandInTest::mainWindowCancelStopsARunOfOneConfiguration() {
    WindowOnCpu fixture(folder_->settings());
    auto& [window, panel, tab, controller] = fixture;
    FakeTileEngine::Script script;
    script.measureDelayMs = 10 * kTimeoutMs;  // never ends by itself: only the cancel stops it
    const auto engine = standIn(controller, script);
    prepare(tab, controller);
    QSignalSpy failed(&controller, &RunController::tileRunFailed);
    tab.runConfiguration();
    QVERIFY(tab.isRunningConfiguration());
    QVERIFY(!panel->runButton()->isEnabled());
    QVERIFY2(panel->runButton()->toolTip().contains(QStringLiteral("tile run")),
             qPrintable(panel->runButton()->toolTip()));
    QVERIFY(panel->cancelButton()->isEnabled());
    QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
    QVERIFY(arrived(failed));
    QVERIFY(!tab.isRunningConfiguration());
    QVERIFY(!controller.isRunning());
    QVERIFY(tab.runButton()->isEnabled());
    QVERIFY(panel->runButton()->isEnabled());
    QVERIFY(!panel->cancelButton()->isEnabled());
    QVERIFY(!panel->isBusyElsewhere());
    QCOMPARE(engine->measured(), 0);
}

QTEST_MAIN(TileExplorerStandInTest)
#include "tile_explorer_standin_test.moc"
