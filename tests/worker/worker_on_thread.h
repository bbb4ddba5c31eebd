#pragma once
// A RunWorker on its own thread, as the UI drives it: set up before it moves, its jobs cancelled
// and the thread joined when the test leaves.
#include <QObject>
#include <QThread>

#include "worker/run_worker.h"
#include "worker/thread_exit_latch.h"

namespace fusescope::testing_support {

class WorkerOnThread {
  public:
    template <typename SetUp>
    explicit WorkerOnThread(SetUp&& setUp) : worker_(new RunWorker) {
        setUp(*worker_);
        worker_->moveToThread(&thread_);
        QObject::connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
        threadExit_.watch(thread_);
        thread_.start();
    }
    WorkerOnThread() : WorkerOnThread([](RunWorker&) {}) {}
    WorkerOnThread(const WorkerOnThread&) = delete;
    WorkerOnThread& operator=(const WorkerOnThread&) = delete;
    ~WorkerOnThread() {
        worker_->jobs().cancelAll();
        thread_.quit();
        thread_.wait();
        threadExit_.waitForExit();
    }
    RunWorker* worker() const { return worker_; }

  private:
    QThread thread_;
    ThreadExitLatch threadExit_;
    RunWorker* worker_;
};

}  // namespace fusescope::testing_support
