// The tile explorer's commands on the worker thread: reports, single runs and tile sweeps, each
// through the tile engine (kernels/tiles in the program; tile_engine.h) and sent back as plain
// values.
#include <QElapsedTimer>

#include "model/run_conversion.h"
#include "tiles/tile_model.h"
#include "tiles/tile_sweep.h"
#include "worker/progress_throttle.h"
#include "worker/run_worker.h"
#include "worker/tile_engine.h"
#include "worker/worker_run_observer.h"

namespace fusescope {

// Streams a tile sweep's cells at once (a sweep has a few dozen) and throttles its progress.
class WorkerTileObserver final : public tiles::TileObserver {
  public:
    WorkerTileObserver(RunWorker& worker, quint64 generation)
        : worker_(worker), generation_(generation) {}

    void progress(double fraction, std::string_view stage, double etaSeconds) override {
        const QString text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
        if (throttle_.admit(fraction, text))
            emit worker_.tileSweepProgress(generation_, {fraction, text, etaSeconds});
    }
    void cellMeasured(const tiles::TileCell& cell, std::size_t index) override {
        if (!worker_.isStale(generation_))
            emit worker_.tileCellMeasured(generation_, cell, static_cast<int>(index));
    }
    bool cancelled() const override { return worker_.isCancelled(generation_); }

  private:
    RunWorker& worker_;
    quint64 generation_;
    ProgressThrottle throttle_;
};

void RunWorker::tileReport(fusescope::TileReportCommand command, quint64 reportGeneration) {
    // A newer report request is queued behind this one: it answers instead.
    if (reportGeneration != latestReportGeneration_.load()) return;
    TileReportOutcome outcome;
    const BackendAvailability availability = probeBackends();
    if (availability.cudaUsable) {
        if (Result<Backend*> cuda = backends_.cuda()) {
            emit tileReportProgress(
                reportGeneration,
                tr("compiling and loading %1 (NVRTC; cached after the first time)")
                    .arg(QString::fromStdString(tiles::tilesText(command.configuration))));
            Result<tiles::ResourceReport> report =
                tileEngine_->report(**cuda, command.configuration);
            if (!report) {
                emit tileReportFailed(reportGeneration, failureMessage(report.status()));
                return;
            }
            outcome.report = std::move(*report);
            outcome.live = true;
            outcome.note = tr("live: %1").arg(QString::fromStdString(outcome.report.limits.name));
            emit tileReportReady(reportGeneration, outcome);
            return;
        }
    }
    const std::optional<tiles::DeviceLimits> limits =
        tiles::knownGpuLimits(command.gpuKey.toStdString(), command.configuration.problem.dtype);
    if (!limits) {
        emit tileReportFailed(reportGeneration,
                              tr("no GPU here and no table entry named '%1'").arg(command.gpuKey));
        return;
    }
    outcome.report = tiles::modelReport(command.configuration, *limits);
    outcome.note = tr("model only, for the %1 (spec sheet): live numbers need an NVIDIA GPU (%2)")
                       .arg(QString::fromStdString(limits->name),
                            QString::fromStdString(availability.cudaReason));
    emit tileReportReady(reportGeneration, outcome);
}

void RunWorker::tileRun(fusescope::TileRunCommand command, quint64 generation) {
    if (isStale(generation)) return;
    if (isCancelled(generation)) {
        emit tileRunFailed(generation, tr("cancelled"));
        return;
    }
    Result<BackendSelection> selection = startBackend(command.backend, command.cudaDevice);
    if (!selection) {
        emit tileRunFailed(generation, QString::fromStdString(selection.status().message()));
        return;
    }
    WorkerRunObserver observer(*this, generation);
    Result<tiles::TileRunResult> result =
        tileEngine_->run(*selection->backend, command.configuration, command.repeats,
                         command.warmup, command.seed, observer);
    observer.flushSamples();
    const QString failure = result ? QString() : failureMessage(result.status());
    if (isStale(generation)) return;
    if (!result) {
        emit tileRunFailed(generation, failure);
        return;
    }
    model::ConversionOptions options;
    options.producer = model::producerString(QStringLiteral("fusescope"));
    emit tileRunFinished(generation, {result->cell, model::recordingFrom(result->run, options)});
}

void RunWorker::tileSweep(fusescope::TileSweepCommand command, quint64 generation) {
    if (isStale(generation)) return;
    if (isCancelled(generation)) {
        tiles::TileSweep partial;
        partial.request = command.request;
        partial.cancelled = true;
        emit tileSweepCancelled(generation, partial);
        return;
    }
    Result<BackendSelection> selection = startBackend(command.backend, command.cudaDevice);
    if (!selection) {
        emit tileSweepFailed(generation, QString::fromStdString(selection.status().message()));
        return;
    }
    emit tileSweepStarted(generation, selection->backend->kind() == BackendKind::Cuda
                                          ? tr("sweeping on the CUDA backend")
                                          : tr("sweeping on the CPU backend (no GPU timings)"));
    WorkerTileObserver observer(*this, generation);
    Result<tiles::TileSweep> sweep =
        tileEngine_->sweep(*selection->backend, command.request, observer);
    const QString failure = sweep ? QString() : failureMessage(sweep.status());
    if (isStale(generation)) return;
    if (!sweep) {
        emit tileSweepFailed(generation, failure);
        return;
    }
    sweep->producer = model::producerString(QStringLiteral("fusescope")).toStdString();
    if (sweep->cancelled)
        emit tileSweepCancelled(generation, *sweep);
    else
        emit tileSweepFinished(generation, *sweep);
}

}  // namespace fusescope
