// The tile explorer's worker commands, driven as the UI drives them: a report request that a
// newer one replaces is skipped on the worker, and a report on a machine without a GPU is the
// model's for a GPU of the table; a tile sweep on the CPU backend streams every cell (refused
// ones too) and ends with the whole sweep; cancel ends it with what was measured.
#include <QSignalSpy>
#include <QtTest>

#include "runtime/backend.h"
#include "support/mlp_tile_configurations.h"
#include "tiles/tile_types.h"
#include "worker/run_controller.h"
#include "worker/run_worker.h"

using namespace fusescope;

namespace {

constexpr int kTimeoutMs = 180000;

TileSweepCommand tinyCpuSweep() {
    TileSweepCommand command;
    command.request.base = testsupport::tinyTileConfiguration();
    command.request.axes = {{"block_m", {16, 32}}, {"block_n", {16, 32, 64}}};
    command.request.repeats = 2;
    command.request.warmup = 0;
    command.request.references = false;
    command.backend = BackendChoice::Cpu;
    return command;
}

}  // namespace

class TileWorkerTest : public QObject {
    Q_OBJECT
  private slots:
    void aQueuedReportThatANewerOneReplacesIsSkipped();
    void aSweepStreamsEveryCellAndEnds();
    void cancelEndsASweepWithWhatWasMeasured();
};

void TileWorkerTest::aQueuedReportThatANewerOneReplacesIsSkipped() {
    // Called directly on this thread: the worker sees the generations exactly as queued calls
    // would arrive after the UI asked twice.
    RunWorker worker;
    QSignalSpy ready(&worker, &RunWorker::jobFinished);
    QSignalSpy failed(&worker, &RunWorker::jobFailed);
    TileReportCommand older;
    older.configuration = testsupport::tinyTileConfiguration();
    TileReportCommand newer = older;
    newer.configuration.problem.tuning["block_n"] = 64;
    const JobId first = worker.jobs().start(JobKind::TileReport);
    const JobId second = worker.jobs().start(JobKind::TileReport);
    worker.execute(first, older);
    QCOMPARE(ready.count(), 0);
    worker.execute(second, newer);
    QCOMPARE(failed.count(), 0);
    QCOMPARE(ready.count(), 1);
    QCOMPARE(ready.first().at(0).value<JobId>(), second);
    const auto outcome = ready.first().at(2).value<TileReportOutcome>();
    QCOMPARE(outcome.report.configuration.problem.tuningValue("block_n"), 64);
    if (!probeBackends().cudaUsable) {
        QVERIFY(!outcome.live);
        QVERIFY2(outcome.note.contains(QStringLiteral("live numbers need an NVIDIA GPU")),
                 qPrintable(outcome.note));
        QCOMPARE(outcome.report.limits.name, std::string("NVIDIA H200"));
        QVERIFY(outcome.report.modelBytes > 0);
    }
}

void TileWorkerTest::aSweepStreamsEveryCellAndEnds() {
    RunController controller;
    QSignalSpy cells(&controller, &RunController::tileCellMeasured);
    QSignalSpy progress(&controller, &RunController::tileSweepProgress);
    QSignalSpy finished(&controller, &RunController::tileSweepFinished);
    QSignalSpy failed(&controller, &RunController::tileSweepFailed);
    controller.submitTileSweep(tinyCpuSweep());
    QVERIFY(controller.isTileSweeping());
    QVERIFY(finished.wait(kTimeoutMs));
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    QVERIFY(!controller.isRunning());
    QVERIFY(!progress.isEmpty());
    QCOMPARE(cells.count(), 6);
    for (int k = 0; k < cells.count(); ++k) QCOMPARE(cells.at(k).at(1).toInt(), k);
    const auto sweep = finished.first().first().value<tiles::TileSweep>();
    QCOMPARE(sweep.cells.size(), std::size_t{6});
    int measured = 0, refused = 0, best = 0;
    for (const tiles::TileCell& cell : sweep.cells) {
        measured += cell.measured ? 1 : 0;
        refused += cell.report.refusal ? 1 : 0;
        best += cell.best ? 1 : 0;
        if (cell.measured) QVERIFY(cell.checkOk);
    }
    QCOMPARE(measured, 3);  // BLOCK_M 32 is larger than M = 4 rounded up to 16
    QCOMPARE(refused, 3);
    QCOMPARE(best, 1);
    QVERIFY(!sweep.cancelled);
}

void TileWorkerTest::cancelEndsASweepWithWhatWasMeasured() {
    RunController controller;
    QSignalSpy cancelled(&controller, &RunController::tileSweepCancelled);
    QSignalSpy finished(&controller, &RunController::tileSweepFinished);
    TileSweepCommand command = tinyCpuSweep();
    command.request.repeats = 100000;  // seconds per cell: cancelled while timing
    controller.submitTileSweep(command);
    QTest::qWait(200);
    controller.cancel();
    QVERIFY(cancelled.wait(kTimeoutMs));
    QCOMPARE(finished.count(), 0);
    const auto partial = cancelled.first().first().value<tiles::TileSweep>();
    QVERIFY(partial.cancelled);
    QVERIFY(partial.cells.size() < 6);
    QVERIFY(!controller.isRunning());
}

QTEST_GUILESS_MAIN(TileWorkerTest)
#include "tile_worker_test.moc"
