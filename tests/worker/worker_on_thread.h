#pragma once
// A RunWorker on its own thread, as the UI drives it (worker/run_worker_thread.h): set up before it
// moves, its jobs cancelled and the thread joined when the test leaves.
#include <memory>

#include "worker/run_worker.h"
#include "worker/run_worker_thread.h"

namespace fusescope::testing_support {

class WorkerOnThread {
  public:
    template <typename SetUp>
    explicit WorkerOnThread(SetUp&& setUp) : thread_(setUpWorker(setUp)) {}
    WorkerOnThread() : WorkerOnThread([](RunWorker&) {}) {}
    RunWorker* worker() const { return thread_.worker(); }

  private:
    template <typename SetUp>
    static std::unique_ptr<RunWorker> setUpWorker(SetUp& setUp) {
        auto worker = std::make_unique<RunWorker>();
        setUp(*worker);
        return worker;
    }

    RunWorkerThread thread_;
};

}  // namespace fusescope::testing_support
