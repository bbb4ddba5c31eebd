#pragma once
// The thread a RunWorker lives on, and the worker's life there: the worker moves to the thread,
// which starts, on construction; on destruction its jobs are cancelled, the thread quits and is
// joined with its exit cleanup (ThreadExitLatch), and the worker is deleted on its own thread as
// that thread finishes, so CUDA is released by the thread that created it.
#include <QThread>
#include <memory>

#include "worker/thread_exit_latch.h"

namespace fusescope {

class RunWorker;

class RunWorkerThread {
  public:
    explicit RunWorkerThread(std::unique_ptr<RunWorker> worker);
    ~RunWorkerThread();
    RunWorkerThread(const RunWorkerThread&) = delete;
    RunWorkerThread& operator=(const RunWorkerThread&) = delete;

    RunWorker* worker() const { return worker_; }

  private:
    QThread thread_;
    ThreadExitLatch exit_;
    RunWorker* worker_;  // lives on thread_, deleted there when it finishes
};

}  // namespace fusescope
