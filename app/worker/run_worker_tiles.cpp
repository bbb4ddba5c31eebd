// The tile explorer's commands on the worker thread: reports, single runs and tile sweeps, each
// through the tile engine (kernels/tiles in the program; tile_engine.h) and sent back as plain
// values.
#include <QElapsedTimer>

#include "model/producer.h"
#include "tiles/tile_model.h"
#include "tiles/tile_sweep.h"
#include "worker/progress_throttle.h"
#include "worker/run_worker.h"
#include "worker/tile_engine.h"
#include "worker/worker_observers.h"

namespace fusescope {

// Streams a tile sweep's cells at once (a sweep has a few dozen) and throttles its progress.
class WorkerTileObserver final : public tiles::TileObserver {
  public:
    explicit WorkerTileObserver(const JobContext& job) : job_(job) {}

    void progress(double fraction, std::string_view stage, double etaSeconds) override {
        const QString text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
        if (throttle_.admit(fraction, text))
            job_.progress(QVariant::fromValue(TileSweepProgress{fraction, text, etaSeconds}));
    }
    void cellMeasured(const tiles::TileCell& cell, std::size_t index) override {
        job_.progress(QVariant::fromValue(TileCellUpdate{cell, static_cast<int>(index)}));
    }
    bool cancelled() const override { return job_.cancelled(); }

  private:
    const JobContext& job_;
    ProgressThrottle throttle_;
};

RunWorker::JobEnd RunWorker::perform(const TileReportCommand& command, const JobContext& job) {
    job.started({});
    TileReportOutcome outcome;
    const BackendAvailability availability = probeBackends();
    if (availability.cudaUsable) {
        if (Result<Backend*> cuda = backends_.cuda(command.target.cudaDevice.value_or(0))) {
            job.progress(QVariant::fromValue(JobStage{
                0.0, tr("compiling and loading %1 (NVRTC; cached after the first time)")
                         .arg(QString::fromStdString(tiles::tilesText(command.configuration)))}));
            Result<tiles::ResourceReport> report =
                tileEngine_->report(**cuda, command.configuration);
            if (!report) return failed(failureMessage(report.status()));
            outcome.report = std::move(*report);
            outcome.live = true;
            outcome.note = tr("live: %1").arg(QString::fromStdString(outcome.report.limits.name));
            return finished(QVariant::fromValue(outcome));
        }
    }
    const std::optional<tiles::DeviceLimits> limits =
        tiles::knownGpuLimits(command.gpuKey.toStdString(), command.configuration.problem.dtype);
    if (!limits) return failed(tr("no GPU here and no table entry named '%1'").arg(command.gpuKey));
    outcome.report = tiles::modelReport(command.configuration, *limits);
    outcome.note = tr("model only, for the %1 (spec sheet): live numbers need an NVIDIA GPU (%2)")
                       .arg(QString::fromStdString(limits->name),
                            QString::fromStdString(availability.cudaReason));
    return finished(QVariant::fromValue(outcome));
}

RunWorker::JobEnd RunWorker::perform(const TileRunCommand& command, const JobContext& job) {
    Result<BackendSelection> selection = startBackend(command.target);
    if (!selection) return failed(QString::fromStdString(selection.status().message()));
    job.started(backendNote(*selection));
    WorkerRunObserver observer(job);
    Result<tiles::TileRunResult> result =
        tileEngine_->run(*selection->backend, command.configuration, command.settings, observer);
    observer.flushSamples();
    if (!result) return endedBy(result.status());
    return finished(QVariant::fromValue(TileRunOutcome{
        result->cell, model::recordingMadeNowBy(result->run, QLatin1String(kWorkerProgram))}));
}

RunWorker::JobEnd RunWorker::perform(const TileSweepCommand& command, const JobContext& job) {
    Result<BackendSelection> selection = startBackend(command.request.target);
    if (!selection) return failed(QString::fromStdString(selection.status().message()));
    job.started(selection->backend->kind() == BackendKind::Cuda
                    ? tr("sweeping on the CUDA backend")
                    : tr("sweeping on the CPU backend (no GPU timings)"));
    WorkerTileObserver observer(job);
    Result<tiles::TileSweep> sweep =
        tileEngine_->sweep(*selection->backend, command.request, observer);
    if (!sweep) return failed(failureMessage(sweep.status()));
    sweep->producer = model::producerString(QLatin1String(kWorkerProgram)).toStdString();
    if (sweep->cancelled) return cancelledWith(QVariant::fromValue(*sweep));
    return finished(QVariant::fromValue(*sweep));
}

}  // namespace fusescope
