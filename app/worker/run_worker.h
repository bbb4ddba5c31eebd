#pragma once
// The one object that touches the GPU. It lives on its own QThread, creates the backends there,
// takes commands through queued slots and sends immutable value snapshots back through queued
// signals. Cancellation and superseding are atomics the UI thread sets directly, because the
// worker is busy inside the run and cannot process queued calls until it returns.
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "model/recording.h"
#include "runtime/backend_selection.h"
#include "selftest/machine_probe.h"
#include "worker/run_command.h"
#include "worker/sweep_command.h"
#include "worker/tile_command.h"

namespace fusescope {

class Backend;
class CounterProvider;
class TileEngine;

class RunWorker : public QObject {
    Q_OBJECT
  public:
    explicit RunWorker(QObject* parent = nullptr);
    ~RunWorker() override;

    // Thread-safe. A new generation makes every older request stale: a queued one is skipped,
    // one in flight stops at its next check and delivers nothing.
    quint64 nextGeneration();
    // Thread-safe. Cancels every request up to the newest generation handed out.
    void requestCancel();
    // Thread-safe. Report requests have their own generations: a newer one makes a queued older
    // one stale without touching a run or sweep in flight.
    quint64 nextReportGeneration();

    // Where counters and samples come from; by default the CUPTI module (or its refusal).
    // Called on the worker thread, once. Tests inject a fake provider and set measureOnCpu so
    // measured runs can be exercised without a GPU.
    using CounterProviderFactory = std::function<std::unique_ptr<CounterProvider>()>;
    void setCounterProviderFactory(CounterProviderFactory factory, bool measureOnCpu);
    // How GPUs are found, opened and reset; by default the CUDA runtime. Called before the first
    // job. Tests hand in a stand-in GPU whose context breaks or which disappears.
    void setCudaDriver(CudaDriver driver);

    // What the tile commands compile and time with; by default the tiles engine. Called on the
    // worker thread (RunController::setTileEngine posts it there, ahead of later commands).
    void setTileEngine(std::shared_ptr<TileEngine> engine);

    // Minimum time between two progress signals of the same stage: about 30 per second.
    static constexpr int kProgressIntervalMs = 33;

  public slots:
    void probe();
    // Measures this CPU's speeds for run estimates with `threads` (worker/cpu_run_estimate.h)
    // unless known, then answers with cpuSpeedsMeasured.
    void measureCpuSpeeds(int threads);
    void run(fusescope::RunCommand command, quint64 generation);
    // A size sweep (runSweep) under the same generations and cancel flag as runs: one job at a
    // time owns the backend, and a newer request of either kind supersedes it.
    void sweep(fusescope::SweepCommand command, quint64 generation);
    // The self-test's probe (a small run of every pipeline), on this thread that owns the GPU.
    void selfTest(QStringList recordingFolders);
    // The tile explorer (run_worker_tiles.cpp). A report request is skipped when a newer one is
    // queued; a tile run or sweep shares the generations and the cancel flag of runs.
    void tileReport(fusescope::TileReportCommand command, quint64 reportGeneration);
    void tileRun(fusescope::TileRunCommand command, quint64 generation);
    void tileSweep(fusescope::TileSweepCommand command, quint64 generation);

  signals:
    void backendsProbed(fusescope::BackendSummary summary);
    void cpuSpeedsMeasured(int threads);
    // `backendNote` says which backend runs and, for auto, why.
    void runStarted(quint64 generation, QString backendNote);
    void progress(quint64 generation, double fraction, QString stage);
    void variantFinished(quint64 generation, fusescope::model::RunRecord record);
    // Live bandwidth: PM samples and timeline spans of a measured run, in batches.
    void samplesArrived(quint64 generation, QString variant,
                        QVector<fusescope::model::SampleRecord> samples,
                        QVector<fusescope::model::TimelineSpan> spans);
    void runFinished(quint64 generation, fusescope::model::Recording recording);
    void runFailed(quint64 generation, QString message);
    void cancelled(quint64 generation);

    // The sweep's signals, apart from the run's so views never mistake one for the other.
    void sweepStarted(quint64 generation, QString backendNote);
    void sweepProgress(quint64 generation, double fraction, QString stage);
    void sweepPointMeasured(quint64 generation, fusescope::SweepPointUpdate update);
    void sweepFinished(quint64 generation, fusescope::SweepOutcome outcome);
    void sweepFailed(quint64 generation, QString message);
    void sweepCancelled(quint64 generation);

    void selfTestFinished(fusescope::selftest::MachineProbe probe);

    // Before a live report compiles (seconds for large tiles; instant from the cache).
    void tileReportProgress(quint64 reportGeneration, QString stage);
    void tileReportReady(quint64 reportGeneration, fusescope::TileReportOutcome outcome);
    void tileReportFailed(quint64 reportGeneration, QString message);
    void tileRunFinished(quint64 generation, fusescope::TileRunOutcome outcome);
    void tileRunFailed(quint64 generation, QString message);
    void tileSweepStarted(quint64 generation, QString backendNote);
    void tileSweepProgress(quint64 generation, fusescope::TileSweepProgress progress);
    // Every cell as soon as it is known (refused ones too), `index` in configurationsOf order.
    void tileCellMeasured(quint64 generation, fusescope::tiles::TileCell cell, int index);
    void tileSweepFinished(quint64 generation, fusescope::tiles::TileSweep sweep);
    void tileSweepFailed(quint64 generation, QString message);
    // Cancelled: the cells measured so far (sweep.cancelled is set).
    void tileSweepCancelled(quint64 generation, fusescope::tiles::TileSweep partial);

  private:
    friend class WorkerRunObserver;
    friend class WorkerSweepObserver;
    friend class WorkerTileObserver;
    bool isStale(quint64 generation) const;
    bool isCancelled(quint64 generation) const;
    // The backend for a choice (selectBackend over this thread's backends); emits nothing.
    Result<BackendSelection> startBackend(BackendChoice choice, std::optional<int> cudaDevice);
    // After a failed job: when the GPU no longer answers, drops it and resets the device so the
    // next job starts afresh; when even that fails, the GPU is reported unavailable (a new
    // backendsProbed) and the CPU backend takes the next auto run. Returns what happened, as a
    // sentence to append to the failure's message; empty when the GPU is fine.
    QString recoverAfterFailure();
    // The failure's message with what recoverAfterFailure did.
    QString failureMessage(const Status& status);

    std::atomic<quint64> latestGeneration_{0};
    std::atomic<quint64> cancelledUpTo_{0};
    std::atomic<quint64> latestReportGeneration_{0};
    BackendSet backends_;
    CounterProviderFactory providerFactory_;
    std::unique_ptr<CounterProvider> provider_;
    bool measureOnCpu_ = false;
    std::shared_ptr<TileEngine> tileEngine_;
};

}  // namespace fusescope
