#pragma once
// A counter provider for CPU-side tests of the plumbing (not of the numbers): it counts what it
// is asked, returns counters the test scripted, and streams synthetic samples from a thread.
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "measure/counter_provider.h"

namespace fusescope {

class FakeCounterProvider : public CounterProvider {
  public:
    // Counters for the i-th launch measured since construction (all measureLaunches calls).
    using CounterScript = std::function<KernelCounters(std::size_t kernelIndex)>;

    explicit FakeCounterProvider(CounterCapability capability = availableCapability());
    ~FakeCounterProvider() override;

    static CounterCapability availableCapability();
    static CounterCapability refusedCapability(CounterRefusal refusal, std::string detail);

    void setCounterScript(CounterScript script) { script_ = std::move(script); }
    // Makes every launch show as this many device kernels (0: a launch that starts none).
    void setDeviceKernelsPerLaunch(std::size_t kernels) { kernelsPerLaunch_ = kernels; }
    // Runs every launch this many times, each after the cache eviction, as the Range Profiler
    // does when the metrics need several passes.
    void setPassesPerLaunch(std::size_t passes) { passesPerLaunch_ = passes; }
    // Makes measureLaunches fail with this refusal (as CUPTI would on its first profiling call).
    void refuseMeasurements(CounterRefusal refusal, std::string detail);
    // Activity records delivered with the next batch (tests play the Activity API).
    void injectActivity(ActivityRecord record);

    CounterCapability capability() override;
    Result<std::vector<KernelCounters>> measureLaunches(
        std::size_t launches, const std::function<Status(std::size_t)>& launchOne,
        const std::function<Status()>& evictCaches) override;
    Status startSampling(std::int64_t intervalNs, SamplingCallback callback) override;
    Result<SamplingStats> stopSampling() override;
    std::int64_t nowNs() override;

    int capabilityCalls() const { return capabilityCalls_; }
    int measureCalls() const { return measureCalls_; }
    bool sampling() const { return running_.load(); }

    // Bytes per second every synthetic sample reports.
    static constexpr double kReadBytesPerSecond = 2e12;
    static constexpr double kWriteBytesPerSecond = 1e12;

  private:
    void decodeLoop(std::int64_t intervalNs);
    void deliver(std::int64_t upToNs);

    CounterCapability capability_;
    CounterScript script_;
    std::size_t kernelsPerLaunch_ = 1;
    std::size_t passesPerLaunch_ = 1;
    CounterRefusal measureRefusal_ = CounterRefusal::None;
    std::string measureRefusalDetail_;
    std::size_t kernelsMeasured_ = 0;
    int capabilityCalls_ = 0;
    int measureCalls_ = 0;

    std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
    std::mutex mutex_;  // guards pendingActivity_ and nextSampleNs_
    std::vector<ActivityRecord> pendingActivity_;
    std::int64_t nextSampleNs_ = 0;
    std::int64_t intervalNs_ = 0;
    SamplingCallback callback_;
    std::atomic<bool> running_{false};
    std::thread decoder_;
    std::uint64_t delivered_ = 0;
    double decodeCpuSeconds_ = 0.0;  // written by decoder_, read after join
};

}  // namespace fusescope
