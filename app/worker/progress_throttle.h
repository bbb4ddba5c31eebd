#pragma once
// Progress from the worker thread: a stage change and the final update go out at once, other
// updates at most every RunWorker::kProgressIntervalMs, so fast loops cannot flood the UI thread.
#include <QElapsedTimer>
#include <QString>

#include "worker/run_worker.h"

namespace fusescope {

class ProgressThrottle {
  public:
    bool admit(double fraction, const QString& stage) {
        const bool newStage = stage != lastStage_;
        const bool final = fraction >= 1.0;
        if (sinceLast_.isValid() && !newStage && !final &&
            sinceLast_.elapsed() < RunWorker::kProgressIntervalMs)
            return false;
        sinceLast_.start();
        lastStage_ = stage;
        return true;
    }

  private:
    QElapsedTimer sinceLast_;
    QString lastStage_;
};

}  // namespace fusescope
