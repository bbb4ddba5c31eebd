#pragma once
// Progress from the worker thread: a stage change and the final update go out at once, other
// updates at most every RunWorker::kProgressIntervalMs, so fast loops cannot flood the UI thread.
#include <QElapsedTimer>
#include <QString>

#include "runtime/progress_estimate.h"
#include "worker/run_worker.h"

namespace fusescope {

class ProgressThrottle {
  public:
    // A new stage ("timing fused") goes out at once; its counters ("repeat 3 of 20") wait.
    bool admit(double fraction, const QString& stage) {
        const std::string text = stage.toStdString();
        const QString key = QString::fromStdString(std::string(progressStageKey(text)));
        const bool newStage = key != lastStage_;
        const bool final = fraction >= 1.0;
        if (sinceLast_.isValid() && !newStage && !final &&
            sinceLast_.elapsed() < RunWorker::kProgressIntervalMs)
            return false;
        sinceLast_.start();
        lastStage_ = key;
        return true;
    }

  private:
    QElapsedTimer sinceLast_;
    QString lastStage_;
};

}  // namespace fusescope
