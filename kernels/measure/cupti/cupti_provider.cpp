// The CUPTI counter provider, built as a module (libfusescope_cupti.so) that the program loads at
// run time: see measure/provider_loader.cpp.
#include <cupti.h>

#include "measure/counter_provider.h"
#include "measure/cupti/cupti_range_counters.h"
#include "measure/cupti/cupti_sampler.h"
#include "measure/cupti/cupti_support.h"

namespace fusescope::cupti {
namespace {

class CuptiCounterProvider : public CounterProvider {
  public:
    CounterCapability capability() override {
        if (!probed_) {
            capability_ = probe();
            probed_ = true;
        }
        return capability_;
    }

    Result<std::vector<KernelCounters>> measureLaunches(
        std::size_t launches, const std::function<Status(std::size_t)>& launchOne,
        const std::function<Status()>& evictCaches) override {
        if (Status s = requireAvailable(); !s) return s;
        // One session per launch: each starts from a clean L2, as under Nsight Compute, and a
        // library call that starts several kernels has them summed, never split or guessed.
        std::vector<KernelCounters> counters;
        for (std::size_t launch = 0; launch < launches; ++launch) {
            Result<KernelCounters> summed = measureLaunch(
                chip_, availability_, [&] { return launchOne(launch); }, evictCaches);
            if (!summed)
                return Status(summed.status().code(), "launch " + std::to_string(launch + 1) +
                                                          ": " + summed.status().message());
            counters.push_back(*summed);
        }
        return counters;
    }

    Status startSampling(std::int64_t intervalNs, SamplingCallback callback) override {
        if (Status s = requireAvailable(); !s) return s;
        return sampler_.start(chip_, intervalNs, std::move(callback));
    }

    Status pollSampling() override { return sampler_.poll(); }
    Result<SamplingStats> stopSampling() override { return sampler_.stop(); }

    std::int64_t nowNs() override {
        std::uint64_t timestamp = 0;
        if (cuptiGetTimestamp(&timestamp) != CUPTI_SUCCESS) return 0;
        return static_cast<std::int64_t>(timestamp);
    }

  private:
    Status requireAvailable() {
        const CounterCapability current = capability();
        if (current.available) return Status::ok();
        return Status(ErrorCode::DeviceUnavailable, current.reason);
    }

    static CounterCapability refused(const Status& status, CUptiResult result) {
        CounterCapability refusedCapability;
        refusedCapability.refusal = classify(result);
        refusedCapability.reason = status.message();
        refusedCapability.adminAdvice = refusalAdvice(refusedCapability.refusal);
        refusedCapability.provider = "CUPTI";
        return refusedCapability;
    }

    CounterCapability probe() {
        CounterCapability probed;
        probed.provider = "CUPTI";
        uint32_t version = 0;
        if (const CUptiResult result = cuptiGetVersion(&version); result != CUPTI_SUCCESS)
            return refused(check(result, "cuptiGetVersion"), result);
        probed.provider = "CUPTI API " + std::to_string(version);
        if (Result<CUcontext> context = currentContext(); !context) {
            probed.refusal = CounterRefusal::NoDevice;
            probed.reason = refusalReason(CounterRefusal::NoDevice, context.status().message());
            probed.adminAdvice = refusalAdvice(CounterRefusal::NoDevice);
            return probed;
        }
        Result<int> device = currentDeviceOrdinal();
        if (!device) return refusedFrom(device.status());
        Result<std::string> chip = initializeProfiler(*device);
        if (!chip) return refusedFrom(chip.status());
        chip_ = *chip;
        Result<std::vector<std::uint8_t>> availability = rangeCounterAvailability();
        if (!availability) return refusedFrom(availability.status());
        availability_ = std::move(*availability);
        probed.available = true;
        probed.provider += " on " + chip_;
        return probed;
    }

    // The Status already carries the words; keep its refusal kind for the UI.
    CounterCapability refusedFrom(const Status& status) {
        CounterCapability refusedCapability;
        refusedCapability.provider = "CUPTI";
        refusedCapability.reason = status.message();
        refusedCapability.refusal = refusalFromReason(status.message());
        refusedCapability.adminAdvice = refusalAdvice(refusedCapability.refusal);
        return refusedCapability;
    }

    bool probed_ = false;
    CounterCapability capability_;
    std::string chip_;
    std::vector<std::uint8_t> availability_;
    Sampler sampler_;
};

}  // namespace
}  // namespace fusescope::cupti

extern "C" __attribute__((visibility("default"))) fusescope::CounterProvider*
fusescopeCreateCuptiProvider() {
    return new fusescope::cupti::CuptiCounterProvider();
}
