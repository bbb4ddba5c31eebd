#include "fakes/fake_counter_provider.h"

#include <time.h>

namespace fusescope {
namespace {

double threadCpuSeconds() {
    timespec now{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0.0;
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace

FakeCounterProvider::FakeCounterProvider(CounterCapability capability)
    : capability_(std::move(capability)) {}

FakeCounterProvider::~FakeCounterProvider() {
    if (running_) (void)stopSampling();
}

CounterCapability FakeCounterProvider::availableCapability() {
    CounterCapability capability;
    capability.available = true;
    capability.provider = "fake";
    return capability;
}

CounterCapability FakeCounterProvider::refusedCapability(CounterRefusal refusal,
                                                         std::string detail) {
    CounterCapability capability;
    capability.available = false;
    capability.refusal = refusal;
    capability.reason = refusalReason(refusal, detail);
    capability.adminAdvice = refusalAdvice(refusal);
    capability.provider = "fake";
    return capability;
}

void FakeCounterProvider::refuseMeasurements(CounterRefusal refusal, std::string detail) {
    measureRefusal_ = refusal;
    measureRefusalDetail_ = std::move(detail);
}

void FakeCounterProvider::injectActivity(ActivityRecord record) {
    if (!running_) return;  // like CUPTI: activity is recorded only while a session runs
    std::lock_guard lock(mutex_);
    pendingActivity_.push_back(std::move(record));
}

CounterCapability FakeCounterProvider::capability() {
    ++capabilityCalls_;
    return capability_;
}

Result<std::vector<KernelCounters>> FakeCounterProvider::measureLaunches(
    std::size_t launches, const std::function<Status(std::size_t)>& launchOne,
    const std::function<Status()>& evictCaches) {
    ++measureCalls_;
    if (!capability_.available) return Status(ErrorCode::DeviceUnavailable, capability_.reason);
    if (measureRefusal_ != CounterRefusal::None)
        return Status(ErrorCode::DeviceUnavailable,
                      refusalReason(measureRefusal_, measureRefusalDetail_));
    std::vector<KernelCounters> counters;
    for (std::size_t launch = 0; launch < launches; ++launch) {
        for (std::size_t pass = 0; pass < passesPerLaunch_; ++pass) {
            if (Status s = evictCaches(); !s) return s;
            if (Status s = launchOne(launch); !s) return s;
        }
        if (kernelsPerLaunch_ == 0)
            return Status(ErrorCode::DeviceError,
                          "the profiler saw no kernel for launch " + std::to_string(launch + 1));
        KernelCounters summed = zeroCounters(static_cast<std::uint32_t>(kernelsPerLaunch_));
        for (std::size_t k = 0; k < kernelsPerLaunch_; ++k)
            addCounters(summed, script_ ? script_(kernelsMeasured_) : KernelCounters{});
        ++kernelsMeasured_;
        counters.push_back(summed);
    }
    return counters;
}

std::int64_t FakeCounterProvider::nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                epoch_)
        .count();
}

Status FakeCounterProvider::startSampling(std::int64_t intervalNs, SamplingCallback callback) {
    if (!capability_.available) return Status(ErrorCode::DeviceUnavailable, capability_.reason);
    if (Status s = validateSamplingInterval(intervalNs); !s) return s;
    if (running_) return Status(ErrorCode::InvalidArgument, "sampling is already running");
    callback_ = std::move(callback);
    intervalNs_ = intervalNs;
    {
        std::lock_guard lock(mutex_);
        nextSampleNs_ = nowNs();
        pendingActivity_.clear();
    }
    delivered_ = 0;
    decodeCpuSeconds_ = 0.0;
    running_ = true;
    decoder_ = std::thread([this, intervalNs] { decodeLoop(intervalNs); });
    return Status::ok();
}

// Emits every whole interval that has passed since the last delivery, in time order.
void FakeCounterProvider::deliver(std::int64_t upToNs) {
    SamplingBatch batch;
    {
        std::lock_guard lock(mutex_);
        while (nextSampleNs_ + intervalNs_ <= upToNs) {
            BandwidthSample sample;
            sample.startNs = nextSampleNs_;
            sample.endNs = nextSampleNs_ + intervalNs_;
            sample.readBytesPerSecond = kReadBytesPerSecond;
            sample.writeBytesPerSecond = kWriteBytesPerSecond;
            batch.samples.push_back(sample);
            nextSampleNs_ = sample.endNs;
        }
        batch.activity.swap(pendingActivity_);
    }
    if (batch.samples.empty() && batch.activity.empty()) return;
    delivered_ += batch.samples.size();
    callback_(std::move(batch));
}

void FakeCounterProvider::decodeLoop(std::int64_t intervalNs) {
    // Batches every couple of milliseconds, not every sample, as the runner's polls give them.
    const auto period = std::chrono::nanoseconds(std::max<std::int64_t>(intervalNs, 2'000'000));
    const double cpuStart = threadCpuSeconds();
    while (running_) {
        std::this_thread::sleep_for(period);
        deliver(nowNs());
    }
    decodeCpuSeconds_ = threadCpuSeconds() - cpuStart;
}

Result<SamplingStats> FakeCounterProvider::stopSampling() {
    if (!running_) return Status(ErrorCode::InvalidArgument, "sampling is not running");
    running_ = false;
    decoder_.join();
    deliver(nowNs());
    SamplingStats stats;
    stats.samples = delivered_;
    stats.decodeCpuSeconds = decodeCpuSeconds_;
    return stats;
}

}  // namespace fusescope
