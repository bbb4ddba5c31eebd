// The controller's typed signals and requests for the views written before jobs: each is a job
// event of one kind, relayed here in one place, so adding a kind adds no signal.
#include "worker/run_controller.h"
#include "worker/run_worker.h"
#include "worker/tile_engine.h"

namespace fusescope {

void RunController::relayStarted(JobKind kind, const QString& note) {
    switch (kind) {
        case JobKind::Run:
            emit runStarted(note);
            break;
        case JobKind::Sweep:
            emit sweepStarted(note);
            break;
        case JobKind::TileSweep:
            emit tileSweepStarted(note);
            break;
        default:
            break;
    }
}

void RunController::relayProgress(JobKind kind, const QVariant& update) {
    if (update.canConvert<JobStage>()) {
        const auto stage = update.value<JobStage>();
        if (kind == JobKind::Sweep)
            emit sweepProgress(stage.fraction, stage.stage);
        else if (kind == JobKind::TileReport)
            emit tileReportProgress(stage.stage);
        else  // a run, or a tile run: the run panel's progress either way
            emit progress(stage.fraction, stage.stage);
    } else if (update.canConvert<model::VariantResult>()) {
        emit variantFinished(update.value<model::VariantResult>());
    } else if (update.canConvert<SampleBatch>()) {
        const auto batch = update.value<SampleBatch>();
        emit samplesArrived(batch.variant, batch.samples, batch.spans);
    } else if (update.canConvert<SweepPointUpdate>()) {
        emit sweepPointMeasured(update.value<SweepPointUpdate>());
    } else if (update.canConvert<TileSweepProgress>()) {
        emit tileSweepProgress(update.value<TileSweepProgress>());
    } else if (update.canConvert<TileCellUpdate>()) {
        const auto cell = update.value<TileCellUpdate>();
        emit tileCellMeasured(cell.cell, cell.index);
    }
}

void RunController::relayFinished(JobKind kind, const QVariant& result) {
    switch (kind) {
        case JobKind::Run:
            emit runFinished(result.value<model::Recording>());
            break;
        case JobKind::Sweep:
            emit sweepFinished(result.value<SweepOutcome>());
            break;
        case JobKind::TileRun:
            emit tileRunFinished(result.value<TileRunOutcome>());
            break;
        case JobKind::TileSweep:
            emit tileSweepFinished(result.value<tiles::TileSweep>());
            break;
        case JobKind::TileReport:
            emit tileReportReady(result.value<TileReportOutcome>());
            break;
        case JobKind::Calibration:
            emit cpuSpeedsMeasured(result.toInt());
            break;
        case JobKind::Probe:
            emit backendsProbed(result.value<BackendSummary>());
            break;
        case JobKind::SelfTest:
            emit selfTestFinished(result.value<selftest::MachineProbe>());
            break;
    }
}

void RunController::relayFailed(JobKind kind, const QString& message) {
    switch (kind) {
        case JobKind::Run:
            emit runFailed(message);
            break;
        case JobKind::Sweep:
            emit sweepFailed(message);
            break;
        case JobKind::TileRun:
            emit tileRunFailed(message);
            break;
        case JobKind::TileSweep:
            emit tileSweepFailed(message);
            break;
        case JobKind::TileReport:
            emit tileReportFailed(message);
            break;
        default:
            break;
    }
}

void RunController::relayCancelled(JobKind kind, const QVariant& partial) {
    switch (kind) {
        case JobKind::Run:
            emit cancelled();
            break;
        case JobKind::Sweep:
            emit sweepCancelled();
            break;
        case JobKind::TileRun:
            // The tile explorer has no cancelled state for one configuration: it says so as an end.
            emit tileRunFailed(tr("cancelled"));
            break;
        case JobKind::TileSweep:
            emit tileSweepCancelled(partial.value<tiles::TileSweep>());
            break;
        default:
            break;
    }
}

void RunController::setTileEngine(std::shared_ptr<TileEngine> engine) {
    QMetaObject::invokeMethod(
        worker(), [worker = worker(), engine] { worker->setTileEngine(engine); },
        Qt::QueuedConnection);
}

void RunController::requestTileReport(const TileReportCommand& command) {
    start(command);
}

void RunController::submitTileRun(const TileRunCommand& command) {
    start(command);
}

void RunController::submitTileSweep(const TileSweepCommand& command) {
    start(command);
}

}  // namespace fusescope
