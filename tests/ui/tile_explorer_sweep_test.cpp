// The Tile explorer's sweeps through the real worker and the real tiles engine on the CPU backend
// (Qt Test, offscreen, no GPU): it compiles nothing and times the lesson kernel's CPU port, so
// the program's own sweep path runs on any machine. The same behaviours with a stand-in compiler
// and executor whose steps the test holds: tile_explorer_standin_test.cpp.
#include <QComboBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "tile_explorer_sweep_fixture.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_heatmap.h"
#include "worker/run_controller.h"

using namespace fusescope;
using namespace fusescope::testing;  // the sweep fixture

namespace {

constexpr int kTimeoutMs = 120000;

bool arrived(QSignalSpy& spy) {
    return fusescope::testing::arrived(spy, kTimeoutMs);
}

}  // namespace

class TileExplorerSweepTest : public QObject {
    Q_OBJECT
  private slots:
    void runThisConfigurationShowsItsNumbersAndLoadsTheRun();
    void sweepFillsTheHeatmapWithProgress();
    void cancelStopsTheSweepAndKeepsItsCells();
    void reportsWaitingBehindASweepAreSuperseded();
    void openingARecordedSweepSupersedesTheLiveOne();
};

void TileExplorerSweepTest::runThisConfigurationShowsItsNumbersAndLoadsTheRun() {
    RunController controller;
    TileExplorerTab tab(&controller);
    prepareSweep(tab, controller, 1, 3, 4);
    QVERIFY(tab.runButton()->isEnabled());
    QSignalSpy finished(&controller, &RunController::tileRunFinished);
    // BLOCK_M 64 on 4 rows is refused by the model: nothing is posted, the reason is shown.
    tab.tileCombo("block_m")->setCurrentIndex(tab.tileCombo("block_m")->findData(64));
    QVERIFY(tab.shownReport() && tab.shownReport()->refusal);
    tab.runConfiguration();
    QVERIFY(!tab.isRunningConfiguration());
    QVERIFY2(tab.resultLabel()->text().contains(
                 QString::fromStdString(tab.shownReport()->refusal->reason)),
             qPrintable(tab.resultLabel()->text()));
    for (const char* name : {"block_m", "block_n"})
        tab.tileCombo(name)->setCurrentIndex(tab.tileCombo(name)->findData(16));
    QVERIFY(tab.shownReport() && !tab.shownReport()->refusal);
    QSignalSpy chosen(&tab, &TileExplorerTab::recordingChosen);
    tab.runConfiguration();
    QVERIFY(tab.isRunningConfiguration());
    QVERIFY(!tab.runButton()->isEnabled());
    QVERIFY(finished.wait(kTimeoutMs));
    QVERIFY(!tab.isRunningConfiguration());
    QVERIFY(tab.runButton()->isEnabled());
    const auto outcome = finished.first().first().value<TileRunOutcome>();
    QVERIFY2(outcome.cell.measured, outcome.cell.error.c_str());
    QCOMPARE(outcome.cell.report.configuration, tab.configuration());
    // Time, GB/s, TFLOP/s, requested (or DRAM) bytes and the check, in the tab's words.
    const QString text = tab.resultLabel()->text();
    for (const QString& part :
         {QStringLiteral("ms median"), QStringLiteral("GB/s"), QStringLiteral("TFLOP/s"),
          QStringLiteral("requested"), QStringLiteral("check")})
        QVERIFY2(text.contains(part), qPrintable(text));
    // The run goes to the window's results, charts and stage.
    QCOMPARE(chosen.size(), qsizetype(1));
    const auto recording = chosen.first().first().value<model::Recording>();
    QVERIFY(!recording.runs.empty());
}

void TileExplorerSweepTest::sweepFillsTheHeatmapWithProgress() {
    RunController controller;
    TileExplorerTab tab(&controller);
    prepareSweep(tab, controller, 1, 3, 4);
    const tiles::TileSweepRequest request = tab.sweepRequest();
    QCOMPARE(request.axes.size(), std::size_t{2});
    const std::size_t total = tiles::configurationsOf(request).size();
    QCOMPARE(total, std::size_t{4});

    QSignalSpy progress(&controller, &RunController::tileSweepProgress);
    QSignalSpy cells(&controller, &RunController::tileCellMeasured);
    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    tab.startSweep();
    QVERIFY(tab.isSweeping());
    QVERIFY(!tab.sweepButton()->isEnabled());
    QVERIFY(tab.cancelButton()->isEnabled());
    // The grid is drawn before the first cell arrives, every cell still empty.
    QCOMPARE(tab.heatmap()->data().cells.size(), qsizetype(total));
    for (const TileHeatmapCell& cell : tab.heatmap()->data().cells) QVERIFY(!cell.value);
    QVERIFY(ended.wait(kTimeoutMs));
    QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));
    QCOMPARE(cells.size(), qsizetype(total));
    QVERIFY(!progress.isEmpty());
    double last = -1.0;
    for (const QList<QVariant>& signal : progress) {
        const double fraction = signal.first().value<TileSweepProgress>().fraction;
        QVERIFY(fraction >= last);  // never backwards
        last = fraction;
    }
    QCOMPARE(tab.progressBar()->value(), tab.progressBar()->maximum());
    QVERIFY(!tab.isSweeping());
    QVERIFY(tab.sweepButton()->isEnabled());
    QVERIFY(!tab.cancelButton()->isEnabled());
    // Every configuration ran on the stand-in and has its time in the heatmap.
    QCOMPARE(tab.sweep().cells.size(), total);
    const int measured = measuredCells(tab.sweep());
    QVERIFY(measured > 0);
    QCOMPARE(drawnCells(*tab.heatmap()), measured);
}

void TileExplorerSweepTest::cancelStopsTheSweepAndKeepsItsCells() {
    RunController controller;
    TileExplorerTab tab(&controller);
    // 16 configurations of a larger problem: enough to cancel in the middle.
    prepareSweep(tab, controller, 3, 30, 64);
    const std::size_t total = tiles::configurationsOf(tab.sweepRequest()).size();
    QCOMPARE(total, std::size_t{16});
    QSignalSpy cells(&controller, &RunController::tileCellMeasured);
    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    tab.startSweep();
    QVERIFY(cells.wait(kTimeoutMs));
    tab.cancelSweep();
    QVERIFY(ended.wait(kTimeoutMs));
    QVERIFY(!ended.first().at(0).toBool());
    QVERIFY2(ended.first().at(1).toString().startsWith(QStringLiteral("Cancelled")),
             qPrintable(ended.first().at(1).toString()));
    QVERIFY(!tab.isSweeping());
    QVERIFY(!controller.isRunning());
    QVERIFY(tab.sweep().cancelled);
    // The grid it was asked for stays, with the cells it reached.
    QCOMPARE(tab.sweep().cells.size(), total);
    const int measured = measuredCells(tab.sweep());
    QVERIFY(measured >= 1);
    QVERIFY2(measured < static_cast<int>(total), qPrintable(QString::number(measured)));
    QVERIFY(tab.sweepButton()->isEnabled());
}

void TileExplorerSweepTest::reportsWaitingBehindASweepAreSuperseded() {
    RunController controller;
    TileExplorerTab tab(&controller);
    // A sweep long enough that it is still running after the clicks below; it is cancelled
    // once they are made, so a fast machine cannot finish it first and answer each request.
    prepareSweep(tab, controller, 2, 100, 64);
    QSignalSpy reports(&controller, &RunController::tileReportReady);
    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    QSignalSpy cells(&controller, &RunController::tileCellMeasured);
    tab.startSweep();
    QVERIFY(cells.wait(kTimeoutMs));
    // While the worker is busy, the user goes through every BLOCK_I and back to BLOCK_H 64:
    // each change asks for a report, and each asks while the previous one still waits.
    const int asked = goThroughEveryBlockI(tab);
    QVERIFY2(asked >= 3, qPrintable(QString::number(asked)));
    const tiles::TileConfiguration wanted = tab.configuration();
    QVERIFY2(tab.isSweeping(), "the sweep ended before the requests were queued behind it");
    reports.clear();
    tab.cancelSweep();
    verifyOnlyTheNewestReportAnswered(tab, ended, reports, wanted, kTimeoutMs);
}

void TileExplorerSweepTest::openingARecordedSweepSupersedesTheLiveOne() {
    RunController controller;
    TileExplorerTab tab(&controller);
    prepareSweep(tab, controller, 3, 30, 64);
    QSignalSpy cells(&controller, &RunController::tileCellMeasured);
    QSignalSpy ended(&tab, &TileExplorerTab::sweepEnded);
    QSignalSpy cancelled(&controller, &RunController::tileSweepCancelled);
    tab.startSweep();
    QVERIFY(cells.wait(kTimeoutMs));
    const QString path = QStringLiteral(FUSESCOPE_TEST_DATA_DIR "/tile_sweep_small.json");
    QCOMPARE(tab.openTileSweepFile(path), QString());
    QCOMPARE(ended.size(), qsizetype(1));
    QVERIFY(!ended.first().at(0).toBool());
    QVERIFY(!tab.isSweeping());
    // The worker's late answer for the live sweep leaves the recorded one on screen.
    QVERIFY(arrived(cancelled));
    QTest::qWait(50);
    QVERIFY(tab.sweep().producer.find("hand-made") != std::string::npos);
    QCOMPARE(tab.heatmap()->data().cells.size(), qsizetype(9));
}

QTEST_MAIN(TileExplorerSweepTest)
#include "tile_explorer_sweep_test.moc"
