#pragma once
// The one object that touches the GPU. It lives on its own QThread, creates the backends there,
// takes jobs (worker/job.h) through one queued entry point and sends immutable value snapshots
// back through five signals tagged with the job's id. Cancellation and superseding are atomics
// (worker/job_tracker.h) the UI thread sets directly, because the worker is busy inside a job and
// cannot process queued calls until it returns.
#include <QObject>
#include <QString>
#include <functional>
#include <memory>

#include "model/recording.h"
#include "runtime/backend_selection.h"
#include "selftest/machine_probe.h"
#include "worker/job.h"
#include "worker/job_context.h"
#include "worker/job_events.h"
#include "worker/job_tracker.h"

namespace fusescope {

class Backend;
class CounterProvider;
class TileEngine;

// The program the worker's recordings and sweeps name as their producer.
inline constexpr char kWorkerProgram[] = "fusescope";

class RunWorker : public JobEvents {
    Q_OBJECT
  public:
    explicit RunWorker(QObject* parent = nullptr);
    ~RunWorker() override;

    // Thread-safe: which jobs are current and which are cancelled.
    JobTracker& jobs() { return jobs_; }
    // Thread-safe. Starts a job in the tracker and queues it to this worker's thread.
    JobId enqueue(JobRequest request);

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

    // Runs one job on this thread: skipped when superseded while queued, cancelled at once when
    // cancelled while queued; else its handler runs and, unless superseded meanwhile, the job ends
    // with exactly one of jobFinished, jobFailed or jobCancelled.
    void execute(fusescope::JobId id, fusescope::JobRequest request);

  private:
    // How a handler ended: finished with a result, failed with a message, or cancelled.
    struct JobEnd {
        enum class State { Finished, Failed, Cancelled } state = State::Finished;
        QVariant value;  // the result, or the partial result of a cancelled job
        QString message;
    };
    static JobEnd finished(QVariant result) {
        return {JobEnd::State::Finished, std::move(result), {}};
    }
    static JobEnd failed(QString message) {
        return {JobEnd::State::Failed, {}, std::move(message)};
    }
    static JobEnd cancelledWith(QVariant partial = {}) {
        return {JobEnd::State::Cancelled, std::move(partial), {}};
    }
    // One handler per kind (run_worker.cpp, run_worker_tiles.cpp, run_worker_jobs.cpp).
    JobEnd perform(const RunCommand& command, const JobContext& job);
    JobEnd perform(const SweepCommand& command, const JobContext& job);
    JobEnd perform(const TileRunCommand& command, const JobContext& job);
    JobEnd perform(const TileSweepCommand& command, const JobContext& job);
    JobEnd perform(const TileReportCommand& command, const JobContext& job);
    JobEnd perform(const CalibrationCommand& command, const JobContext& job);
    JobEnd perform(const ProbeCommand& command, const JobContext& job);
    JobEnd perform(const SelfTestCommand& command, const JobContext& job);
    // What a job cancelled before it began delivers (a tile sweep: no cells, marked cancelled).
    static QVariant cancelledBeforeStart(const JobRequest& request);
    BackendSummary describeBackends();
    // Says which backend runs: for auto also why; for a named backend just which.
    static QString backendNote(const BackendSelection& selection);

    // The backend for a choice (selectBackend over this thread's backends); emits nothing.
    Result<BackendSelection> startBackend(const Target& target);
    // After a failed job: when the GPU no longer answers, drops it and resets the device so the
    // next job starts afresh; when even that fails, the GPU is reported unavailable (a new
    // probe result) and the CPU backend takes the next auto run. Returns what happened, as a
    // sentence to append to the failure's message; empty when the GPU is fine.
    QString recoverAfterFailure();
    // The failure's message with what recoverAfterFailure did.
    QString failureMessage(const Status& status);
    // How a job ends whose engine call gave `status`: cancelled where the engine stopped for the
    // cancel, else failed with failureMessage.
    JobEnd endedBy(const Status& status);

    JobTracker jobs_;
    BackendSet backends_;
    CounterProviderFactory providerFactory_;
    std::unique_ptr<CounterProvider> provider_;
    bool measureOnCpu_ = false;
    std::shared_ptr<TileEngine> tileEngine_;
};

}  // namespace fusescope
