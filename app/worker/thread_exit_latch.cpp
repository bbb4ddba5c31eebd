#include "worker/thread_exit_latch.h"

#include <pthread.h>

#include <QThread>
#include <condition_variable>
#include <mutex>

namespace fusescope {

struct ThreadExitLatch::State {
    std::mutex mutex;
    std::condition_variable opened;
    bool armed = false;
    bool exited = false;
};

namespace {

// What the watched thread's key holds: the latch's state, kept alive until the latch opens.
struct Arming {
    std::shared_ptr<ThreadExitLatch::State> state;
    bool firstRound = true;
};

void onThreadExit(void* value);

// One key for every latch, made on first use; nullptr when the system has no key left.
const pthread_key_t* exitLatchKey() {
    static const auto key = [] {
        auto made = std::make_unique<pthread_key_t>();
        if (pthread_key_create(made.get(), onThreadExit) != 0) made.reset();
        return made;
    }();
    return key.get();
}

void openLatch(const std::shared_ptr<ThreadExitLatch::State>& state) {
    {
        const std::lock_guard lock(state->mutex);
        state->exited = true;
    }
    state->opened.notify_all();
}

// POSIX calls the key destructors of an exiting thread in rounds, and starts another round only
// after every destructor of the round before has returned. Qt's cleanup runs in the first round
// (its key holds the thread's data), so the latch sets its key again there and opens in the
// second round, after Qt's cleanup has returned.
void onThreadExit(void* value) {
    auto* arming = static_cast<Arming*>(value);
    if (arming->firstRound) {
        arming->firstRound = false;
        if (pthread_setspecific(*exitLatchKey(), arming) == 0) return;
    }
    openLatch(arming->state);
    delete arming;
}

void arm(const std::shared_ptr<ThreadExitLatch::State>& state) {
    const pthread_key_t* key = exitLatchKey();
    if (key == nullptr) return;  // unarmed: the owner waits as QThread::wait() alone does
    auto arming = std::make_unique<Arming>(Arming{state});
    if (pthread_setspecific(*key, arming.get()) != 0) return;
    arming.release();
    const std::lock_guard lock(state->mutex);
    state->armed = true;
    state->exited = false;
}

}  // namespace

ThreadExitLatch::ThreadExitLatch() : state_(std::make_shared<State>()) {}

ThreadExitLatch::~ThreadExitLatch() = default;

void ThreadExitLatch::watch(QThread& thread) {
    QObject::connect(
        &thread, &QThread::started, &thread, [state = state_] { arm(state); },
        Qt::DirectConnection);
}

bool ThreadExitLatch::waitForExit(std::chrono::milliseconds limit) {
    std::unique_lock lock(state_->mutex);
    if (!state_->armed) return true;
    return state_->opened.wait_for(lock, limit, [this] { return state_->exited; });
}

}  // namespace fusescope
