#pragma once
// The UI thread's handle on the worker: starts the worker thread, posts commands to it, and
// forwards only the newest request's results (older generations are dropped, as in hotspot's
// job tracker). Destroying it cancels any run and joins the thread.
#include <QObject>
#include <QThread>
#include <memory>

#include "model/recording.h"
#include "selftest/machine_probe.h"
#include "worker/run_command.h"
#include "worker/sweep_command.h"
#include "worker/tile_command.h"

namespace fusescope {

class RunWorker;
class TileEngine;

class RunController : public QObject {
    Q_OBJECT
  public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

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
    bool isTileSweeping() const { return running_ && job_ == Job::TileSweep; }
    bool isTileRunning() const { return running_ && job_ == Job::TileRun; }
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
    // Sets the cancel flag directly: the worker checks it between repeats.
    void cancel();
    // True while a run or a sweep is in flight; isSweeping() says which.
    bool isRunning() const { return running_; }
    bool isSweeping() const { return running_ && job_ == Job::Sweep; }

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
    void variantFinished(fusescope::model::RunRecord record);
    void samplesArrived(QString variant, QVector<fusescope::model::SampleRecord> samples,
                        QVector<fusescope::model::TimelineSpan> spans);
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
    void connectSweepSignals();
    void connectTileSignals();

    bool isCurrent(quint64 generation) const { return generation == generation_; }
    enum class Job { Run, Sweep, TileRun, TileSweep };
    // A request of kind `job` is about to be posted: a new generation_, running.
    void started(Job job);
    // The current request ended (its ending signal already sent).
    void ended();

    QThread thread_;
    RunWorker* worker_ = nullptr;  // lives on thread_, deleted there when it finishes
    quint64 generation_ = 0;
    bool running_ = false;
    Job job_ = Job::Run;  // the kind of the request in flight (or the last one)
    quint64 reportGeneration_ = 0;
};

}  // namespace fusescope
