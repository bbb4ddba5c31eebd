#pragma once
// The UI thread's handle on the worker: starts the worker thread, posts commands to it, and
// forwards only the newest request's results (older generations are dropped, as in hotspot's
// job tracker). Destroying it cancels any run and joins the thread.
#include <QObject>
#include <QThread>

#include "model/recording.h"
#include "selftest/machine_probe.h"
#include "worker/run_command.h"
#include "worker/sweep_command.h"

namespace fusescope {

class RunWorker;

class RunController : public QObject {
    Q_OBJECT
  public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Posts a run; any older request, queued or running, becomes stale.
    void submit(const RunCommand& command);
    // Posts a size sweep; like submit(), it makes any older request (run or sweep) stale.
    void submitSweep(const SweepCommand& command);
    // Asks the worker to describe the backends; answers with backendsProbed.
    void probe();
    // Asks the worker for the self-test's probe; answers with selfTestFinished. Queued behind
    // any run in flight, since the worker owns the GPU.
    void selfTest(const QStringList& recordingFolders);
    // Sets the cancel flag directly: the worker checks it between repeats.
    void cancel();
    // True while a run or a sweep is in flight; isSweeping() says which.
    bool isRunning() const { return running_; }
    bool isSweeping() const { return running_ && sweeping_; }

  signals:
    void backendsProbed(fusescope::BackendSummary summary);
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

  private:
    void connectSweepSignals();

    bool isCurrent(quint64 generation) const { return generation == generation_; }

    QThread thread_;
    RunWorker* worker_ = nullptr;  // lives on thread_, deleted there when it finishes
    quint64 generation_ = 0;
    bool running_ = false;
    bool sweeping_ = false;  // the request in flight is a sweep
};

}  // namespace fusescope
