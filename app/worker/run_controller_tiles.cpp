// The tile explorer's side of the controller: posts report, run and sweep requests and forwards
// only the newest request's answers.
#include "worker/run_controller.h"
#include "worker/run_worker.h"
#include "worker/tile_engine.h"

namespace fusescope {

void RunController::connectTileSignals() {
    connect(worker_, &RunWorker::tileReportProgress, this,
            [this](quint64 generation, QString stage) {
                if (generation == reportGeneration_) emit tileReportProgress(stage);
            });
    connect(worker_, &RunWorker::tileReportReady, this,
            [this](quint64 generation, TileReportOutcome outcome) {
                if (generation == reportGeneration_) emit tileReportReady(outcome);
            });
    connect(worker_, &RunWorker::tileReportFailed, this,
            [this](quint64 generation, QString message) {
                if (generation == reportGeneration_) emit tileReportFailed(message);
            });
    connect(worker_, &RunWorker::tileRunFinished, this,
            [this](quint64 generation, TileRunOutcome outcome) {
                if (!isCurrent(generation)) return;
                running_ = false;
                emit tileRunFinished(outcome);
                ended();
            });
    connect(worker_, &RunWorker::tileRunFailed, this, [this](quint64 generation, QString message) {
        if (!isCurrent(generation)) return;
        running_ = false;
        emit tileRunFailed(message);
        ended();
    });
    connect(worker_, &RunWorker::tileSweepStarted, this, [this](quint64 generation, QString note) {
        if (isCurrent(generation)) emit tileSweepStarted(note);
    });
    connect(worker_, &RunWorker::tileSweepProgress, this,
            [this](quint64 generation, TileSweepProgress progress) {
                if (isCurrent(generation) && running_) emit tileSweepProgress(progress);
            });
    connect(worker_, &RunWorker::tileCellMeasured, this,
            [this](quint64 generation, tiles::TileCell cell, int index) {
                if (isCurrent(generation) && running_) emit tileCellMeasured(cell, index);
            });
    connect(worker_, &RunWorker::tileSweepFinished, this,
            [this](quint64 generation, tiles::TileSweep sweep) {
                if (!isCurrent(generation)) return;
                running_ = false;
                emit tileSweepFinished(sweep);
                ended();
            });
    connect(worker_, &RunWorker::tileSweepFailed, this,
            [this](quint64 generation, QString message) {
                if (!isCurrent(generation)) return;
                running_ = false;
                emit tileSweepFailed(message);
                ended();
            });
    connect(worker_, &RunWorker::tileSweepCancelled, this,
            [this](quint64 generation, tiles::TileSweep partial) {
                if (!isCurrent(generation)) return;
                running_ = false;
                emit tileSweepCancelled(partial);
                ended();
            });
}

void RunController::setTileEngine(std::shared_ptr<TileEngine> engine) {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, engine] { worker->setTileEngine(engine); },
        Qt::QueuedConnection);
}

void RunController::requestTileReport(const TileReportCommand& command) {
    reportGeneration_ = worker_->nextReportGeneration();
    QMetaObject::invokeMethod(worker_, "tileReport", Qt::QueuedConnection,
                              Q_ARG(fusescope::TileReportCommand, command),
                              Q_ARG(quint64, reportGeneration_));
}

void RunController::submitTileRun(const TileRunCommand& command) {
    started(Job::TileRun);
    QMetaObject::invokeMethod(worker_, "tileRun", Qt::QueuedConnection,
                              Q_ARG(fusescope::TileRunCommand, command),
                              Q_ARG(quint64, generation_));
}

void RunController::submitTileSweep(const TileSweepCommand& command) {
    started(Job::TileSweep);
    QMetaObject::invokeMethod(worker_, "tileSweep", Qt::QueuedConnection,
                              Q_ARG(fusescope::TileSweepCommand, command),
                              Q_ARG(quint64, generation_));
}

}  // namespace fusescope
