#pragma once
// A run observer that cancels once the runner reports a stage, after a delay, and records when:
// what the cancel-latency tests measure from.
#include <atomic>
#include <chrono>
#include <string>
#include <string_view>
#include <thread>

#include "runtime/runner.h"

namespace testsupport {

using Clock = std::chrono::steady_clock;

// Cancels once the runner reports `stage` (a prefix) and `delay` has passed since; records when.
class CancelDuringStage : public fusescope::RunObserver {
  public:
    CancelDuringStage(std::string stage, std::chrono::milliseconds delay)
        : stage_(std::move(stage)), delay_(delay) {}

    void progress(double, std::string_view stage) override {
        if (!stageSeen_ && stage.rfind(stage_, 0) == 0) {
            stageSeen_ = true;
            canceller_ = std::jthread([this] {
                std::this_thread::sleep_for(delay_);
                cancelledAt_ = Clock::now();
                cancel_ = true;
            });
        }
    }
    bool cancelled() const override { return cancel_.load(); }

    bool stageSeen() const { return stageSeen_; }
    Clock::time_point cancelledAt() const { return cancelledAt_; }
    void join() {
        if (canceller_.joinable()) canceller_.join();
    }

  private:
    std::string stage_;
    std::chrono::milliseconds delay_;
    bool stageSeen_ = false;
    std::atomic<bool> cancel_{false};
    Clock::time_point cancelledAt_;
    std::jthread canceller_;
};

inline double secondsBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

}  // namespace testsupport
