#pragma once
// The UI thread's handle on the worker: starts the worker thread, posts commands to it, and
// forwards only the newest request's results (older generations are dropped, as in hotspot's
// job tracker). Destroying it cancels any run and joins the thread.
#include <QObject>
#include <QThread>

#include "model/recording.h"
#include "worker/run_command.h"

namespace fusescope {

class RunWorker;

class RunController : public QObject {
    Q_OBJECT
  public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Posts a run; any older request, queued or running, becomes stale.
    void submit(const RunCommand& command);
    // Asks the worker to describe the backends; answers with backendsProbed.
    void probe();
    // Sets the cancel flag directly: the worker checks it between repeats.
    void cancel();
    bool isRunning() const { return running_; }

  signals:
    void backendsProbed(fusescope::BackendSummary summary);
    void runStarted(QString backendNote);
    void progress(double fraction, QString stage);
    void variantFinished(fusescope::model::RunRecord record);
    void samplesArrived(QString variant, QVector<fusescope::model::SampleRecord> samples,
                        QVector<fusescope::model::TimelineSpan> spans);
    void runFinished(fusescope::model::Recording recording);
    void runFailed(QString message);
    void cancelled();

  private:
    bool isCurrent(quint64 generation) const { return generation == generation_; }

    QThread thread_;
    RunWorker* worker_ = nullptr;  // lives on thread_, deleted there when it finishes
    quint64 generation_ = 0;
    bool running_ = false;
};

}  // namespace fusescope
