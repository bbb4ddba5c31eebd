#pragma once
// Before the first CPU run (or CPU estimate) with a thread count, this CPU's speeds must be
// measured (worker/cpu_run_estimate.h). The gate has the worker measure them as an ordinary job
// and calls back when they are in; the window's event loop runs on meanwhile, with the run panel
// and the status bar (always in sight, where the panel may be scrolled) saying what it measures,
// and the panel's Cancel (or cancel()) dropping the wait at once.
#include <QObject>
#include <QString>
#include <functional>

#include "worker/job.h"

class QStatusBar;

namespace fusescope {

class RunController;
class RunPanel;

class CpuSpeedsGate final : public QObject {
    Q_OBJECT
  public:
    CpuSpeedsGate(RunController& controller, RunPanel& panel, QStatusBar& statusBar,
                  QObject* parent = nullptr);

    // Calls `then` once the speeds for the command's thread count are known: at once when they
    // are, or the command runs on a GPU; else when the worker's calibration ends with them. A
    // cancel, a failed calibration or a newer call drops `then`.
    void whenKnown(const RunCommand& command, const BackendSummary& summary,
                   std::function<void()> then);
    bool isMeasuring() const { return job_ != 0; }
    // Stops waiting now; the worker's calibration is cancelled too.
    void cancel();

  signals:
    // The wait ended, with the speeds or without (cancelled, failed, superseded).
    void settled();

  private:
    void onEnded(JobId id, bool measured);
    // The panel and the status bar back as they were before the wait.
    void endWait();

    RunController& controller_;
    RunPanel& panel_;
    QStatusBar& statusBar_;
    JobId job_ = 0;
    int threads_ = 0;
    std::function<void()> then_;
    QString measuring_;
};

}  // namespace fusescope
