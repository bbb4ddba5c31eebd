#pragma once
// The UI thread's handle on the worker: starts the worker thread, posts jobs to it (start()), and
// forwards only the newest job of each lane (worker/job_tracker.h), through the five signals of
// worker/job_events.h. The typed signals below them (runFinished, sweepProgress, ...) are the same
// events for views written before jobs, relayed in one place (run_controller_relay.cpp).
// Destroying it cancels every job and joins the thread.
#include <QObject>
#include <memory>

#include <array>

#include "model/recording.h"
#include "selftest/machine_probe.h"
#include "worker/job.h"
#include "worker/job_events.h"
#include "worker/run_worker_thread.h"

namespace fusescope {

class RunWorker;
class TileEngine;

class RunController : public JobEvents {
    Q_OBJECT
  public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Posts a job; an older job of its lane, queued or running, becomes stale and delivers
    // nothing more. The job answers with jobStarted, any jobProgress, then exactly one of
    // jobFinished, jobFailed and jobCancelled (none when superseded).
    JobId start(const JobRequest& request);
    // Cancels the job if it is still the newest of its lane: it ends with jobCancelled within
    // half a second (a calibration at its end, a quarter of a second at most).
    void cancel(JobId id);
    // The newest job of a kind's lane, while it has not ended (0 when none).
    JobId activeJob(JobKind kind) const;

    // Posts a run; any older request, queued or running, becomes stale.
    void submit(const RunCommand& command);
    // Posts a size sweep; like submit(), it makes any older request (run or sweep) stale.
    void submitSweep(const SweepCommand& command);
    // The tile explorer (run_controller_tiles.cpp). A report request replaces any report still
    // queued and leaves a run or sweep in flight alone; it answers with tileReportReady (or
    // tileReportFailed) once the worker is free. Tile runs and sweeps are requests like
    // submit(): they make older requests stale, and cancel() stops them.
    void requestTileReport(const TileReportCommand& command);
    void submitTileRun(const TileRunCommand& command);
    void submitTileSweep(const TileSweepCommand& command);
    bool isTileSweeping() const { return isBusyWith(JobKind::TileSweep); }
    bool isTileRunning() const { return isBusyWith(JobKind::TileRun); }
    // What the worker's tile commands compile and time with (tests: a stand-in); nullptr puts
    // the tiles engine back. Posted to the worker: it holds for the commands posted after it.
    void setTileEngine(std::shared_ptr<TileEngine> engine);

    // Asks the worker to describe the backends; answers with backendsProbed.
    void probe();
    // Asks the worker to measure this CPU's speeds for run estimates with `threads` (0: all)
    // unless known; answers with cpuSpeedsMeasured. Queued behind any job in flight.
    void measureCpuSpeeds(int threads);
    // Asks the worker for the self-test's probe; answers with selfTestFinished. Queued behind
    // any run in flight, since the worker owns the GPU.
    void selfTest(const QStringList& recordingFolders);
    // Cancels the job that holds the device (run, sweep, tile run or tile sweep): the worker
    // checks the flag between repeats.
    void cancel();
    // True while a job holds the device (run, sweep, tile run or tile sweep); isSweeping() and
    // the others say which.
    bool isRunning() const { return activeJob(JobKind::Run) != 0; }
    bool isSweeping() const { return isBusyWith(JobKind::Sweep); }

  signals:
    // The worker took a request or finished one (isRunning() and which kind changed): emitted
    // after the request's own ending signal, so views that follow the worker's state see the
    // ending first.
    void busyChanged();
    void backendsProbed(fusescope::BackendSummary summary);
    void cpuSpeedsMeasured(int threads);
    void selfTestFinished(fusescope::selftest::MachineProbe probe);
    void runStarted(QString backendNote);
    void progress(double fraction, QString stage);
    void variantFinished(fusescope::model::VariantResult run);
    void samplesArrived(QString variant, QVector<fusescope::BandwidthSample> samples,
                        QVector<fusescope::TimelineSpan> spans);
    void runFinished(fusescope::model::Recording recording);
    void runFailed(QString message);
    void cancelled();

    void sweepStarted(QString backendNote);
    void sweepProgress(double fraction, QString stage);
    void sweepPointMeasured(fusescope::SweepPointUpdate update);
    void sweepFinished(fusescope::SweepOutcome outcome);
    void sweepFailed(QString message);
    void sweepCancelled();

    void tileReportProgress(QString stage);
    void tileReportReady(fusescope::TileReportOutcome outcome);
    void tileReportFailed(QString message);
    void tileRunFinished(fusescope::TileRunOutcome outcome);
    void tileRunFailed(QString message);
    void tileSweepStarted(QString backendNote);
    void tileSweepProgress(fusescope::TileSweepProgress progress);
    void tileCellMeasured(fusescope::tiles::TileCell cell, int index);
    void tileSweepFinished(fusescope::tiles::TileSweep sweep);
    void tileSweepFailed(QString message);
    void tileSweepCancelled(fusescope::tiles::TileSweep partial);

  private:
    // The worker's signals, for the newest job of its lane while it has not ended.
    void onStarted(JobId id, JobKind kind, const QString& note);
    void onProgress(JobId id, JobKind kind, const QVariant& update);
    // An ending of the current job closes it (true); any other ending is dropped (false).
    bool close(JobId id, JobKind kind);
    // After an ending's signals: busyChanged when the job held the device.
    void ended(JobKind kind);
    bool isCurrent(JobId id, JobKind kind) const;
    bool isBusyWith(JobKind kind) const;
    // The typed signals for the views written before jobs (run_controller_relay.cpp).
    void relayStarted(JobKind kind, const QString& note);
    void relayProgress(JobKind kind, const QVariant& update);
    void relayFinished(JobKind kind, const QVariant& result);
    void relayFailed(JobKind kind, const QString& message);
    void relayCancelled(JobKind kind, const QVariant& partial);

    RunWorker* worker() const { return workerThread_.worker(); }

    RunWorkerThread workerThread_;
    // Per kind: the newest job asked for, and whether it is still open (not ended). A job
    // supersedes the jobs of every kind of its lane, so starting one closes them all.
    std::array<JobId, kJobKinds> newest_{};
    std::array<bool, kJobKinds> open_{};
};

}  // namespace fusescope
