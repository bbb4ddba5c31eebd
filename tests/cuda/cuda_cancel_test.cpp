// A cancel during a long sequence of GPU launches leaves at most the launch that is running to
// finish, whether the launches are timed apart or as a chain. Each test skips with the reason
// when no GPU is usable.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cuda_gpu_fixture.h"
#include "spin_execution.h"

using namespace fusescope;
using namespace fusescope::testing_support;

namespace {

constexpr std::uint64_t kSpinUs = 100'000;  // 100 ms a launch: five of them are a long run
constexpr std::size_t kLaunches = 5;

struct SpinSequence {
    explicit SpinSequence(void* counters) {
        problem.dimensions["spin_us"] = kSpinUs;
        for (std::size_t k = 0; k < kLaunches; ++k) {
            KernelLaunch& launch = launches.emplace_back();
            launch.execution = execution.get();
            launch.call.problem = &problem;
            launch.call.variant = "spin";
            launch.call.kernelIndex = k;
            launch.call.kernelName = "spin" + std::to_string(k);
            launch.call.buffers = {counters};
        }
    }
    std::unique_ptr<KernelExecution> execution = makeSpinExecution();
    Problem problem;
    std::vector<KernelLaunch> launches;
};

// Cancels a little after launch `launch` (counted from 1) has started, noting how many launches
// had finished just before.
class CancelDuringLaunch {
  public:
    CancelDuringLaunch(const SpinCounters& counters, unsigned launch)
        : watcher_([this, &counters, launch](const std::stop_token& stop) {
              while (!stop.stop_requested() && counters.started() < launch)
                  std::this_thread::sleep_for(std::chrono::milliseconds(1));
              if (stop.stop_requested()) return;
              std::this_thread::sleep_for(std::chrono::milliseconds(20));
              finishedBefore_ = counters.finished();
              cancelled_ = true;
          }) {}
    CancelToken token() const {
        return CancelToken([this] { return cancelled_.load(); });
    }
    bool cancelled() const { return cancelled_; }
    unsigned finishedBefore() const { return finishedBefore_; }

  private:
    std::atomic<bool> cancelled_{false};
    std::atomic<unsigned> finishedBefore_{0};
    std::jthread watcher_;  // last: stopped and joined before the members it reads go
};

class CancelTokenFor {
  public:
    CancelTokenFor(Backend& backend, const CancelDuringLaunch& cancel) : backend_(backend) {
        backend_.useCancelToken(cancel.token());
    }
    ~CancelTokenFor() { backend_.useCancelToken(CancelToken()); }
    CancelTokenFor(const CancelTokenFor&) = delete;
    CancelTokenFor& operator=(const CancelTokenFor&) = delete;

  private:
    Backend& backend_;
};

// The timing was cancelled during a launch, and at most that one launch finished after it; every
// launch that started has finished.
template <typename Timed>
void expectOneLaunchLeftAfterTheCancel(const Result<Timed>& cancelled,
                                       const CancelDuringLaunch& cancel,
                                       const SpinCounters& counters) {
    ASSERT_TRUE(cancel.cancelled());
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.status().code(), ErrorCode::Cancelled);
    EXPECT_LE(counters.finished() - cancel.finishedBefore(), 1u)
        << "launches finished after the cancel; " << counters.started() << " of " << kLaunches
        << " started";
    EXPECT_EQ(counters.started(), counters.finished());
}

}  // namespace

// A GPU, its spin counters and the five spin launches.
class CudaCancelTest : public GpuTest {
  protected:
    void SetUp() override {
        GpuTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        Result<std::unique_ptr<SpinCounters>> made = SpinCounters::create();
        ASSERT_TRUE(made) << made.status().message();
        counters = std::move(*made);
        sequence.emplace(counters->device());
    }

    // The launches timed apart once in full, as a run's checking launch does: each launch's
    // time stays its own.
    void timeApartOnce() {
        Result<std::vector<double>> times =
            backend->timeLaunches(sequence->launches, TimedStart::AllEnqueued);
        ASSERT_TRUE(times) << times.status().message();
        for (double time : *times) EXPECT_NEAR(time, kSpinUs / 1000.0, 5.0);
    }

    // `time` (a timing of the launches) cancelled during the second launch: at most that launch
    // finishes after the cancel.
    template <typename Time>
    void expectACancelInTheSecondLaunchLeavesOne(Time time) {
        counters->reset();
        CancelDuringLaunch cancel(*counters, 2);
        const auto cancelled = [&] {
            const CancelTokenFor inUse(*backend, cancel);
            return time();
        }();
        expectOneLaunchLeftAfterTheCancel(cancelled, cancel, *counters);
    }

    std::unique_ptr<SpinCounters> counters;
    std::optional<SpinSequence> sequence;
};

TEST_F(CudaCancelTest, ACancelLeavesOneTimedLaunchToFinish) {
    timeApartOnce();
    expectACancelInTheSecondLaunchLeavesOne(
        [&] { return backend->timeLaunches(sequence->launches, TimedStart::AllEnqueued); });
}

TEST_F(CudaCancelTest, ACancelLeavesOneLaunchOfAChainToFinish) {
    // The runner times a repeat's launches apart, then as a chain.
    timeApartOnce();
    Result<double> chain = backend->timeChain(sequence->launches);
    ASSERT_TRUE(chain) << chain.status().message();
    EXPECT_NEAR(*chain, kLaunches * kSpinUs / 1000.0, 10.0);
    expectACancelInTheSecondLaunchLeavesOne([&] { return backend->timeChain(sequence->launches); });
}
