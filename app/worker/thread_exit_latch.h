#pragma once
// QThread starts its threads detached: QThread::wait() returns once the thread has finished its
// run, before the thread's own exit cleanup has run. Qt drops the thread's QThreadData in that
// cleanup, so an owner that returns right after wait() can let the program exit with Qt's state
// for the thread still alive (and a leak checker report it). The latch opens only after that
// cleanup: an owner waits on it after wait(), and no part of the thread outlives the owner.
#include <chrono>
#include <memory>

class QThread;

namespace fusescope {

class ThreadExitLatch {
  public:
    ThreadExitLatch();
    ~ThreadExitLatch();
    ThreadExitLatch(const ThreadExitLatch&) = delete;
    ThreadExitLatch& operator=(const ThreadExitLatch&) = delete;

    // Before thread.start(): the latch arms itself on that thread as it starts.
    void watch(QThread& thread);
    // After the thread has been joined (QThread::wait()): true once its exit cleanup has run,
    // or at once when the latch was never armed; false when the limit passed first.
    bool waitForExit(std::chrono::milliseconds limit = std::chrono::seconds(5));

    struct State;

  private:
    std::shared_ptr<State> state_;
};

}  // namespace fusescope
