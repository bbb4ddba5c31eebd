#pragma once
// A backend for CPU-side tests of the measured-run plumbing: it executes on the CPU backend but
// says it is CUDA, and plays the Activity API into a FakeCounterProvider (kernel spans,
// allocations and frees on the provider's clock), as CUPTI would on a GPU.
#include <chrono>
#include <thread>

#include "fakes/fake_counter_provider.h"
#include "fakes/forwarding_backend.h"
#include "runtime/backend.h"

namespace fusescope::testing_support {

class GpuLikeBackend : public ForwardingBackend {
  public:
    explicit GpuLikeBackend(FakeCounterProvider& provider)
        : ForwardingBackend(createCpuBackend(2)), provider_(provider) {}

    BackendKind kind() const override { return BackendKind::Cuda; }
    DeviceInfo describe() const override {
        DeviceInfo info = inner().describe();
        info.backend = BackendKind::Cuda;
        info.l2CacheBytes = 60u << 20;
        return info;
    }
    Result<void*> allocate(std::uint64_t bytes) override {
        Result<void*> pointer = inner().allocate(bytes);
        if (pointer) record(ActivityRecord::Kind::Allocate, "", bytes, *pointer);
        return pointer;
    }
    Status release(void* pointer) override {
        record(ActivityRecord::Kind::Free, "", 0, pointer);
        return inner().release(pointer);
    }
    Result<std::vector<double>> timeLaunches(std::span<const KernelLaunch> launches,
                                             TimedStart timedStart) override {
        std::vector<double> times;
        for (const KernelLaunch& launch : launches) {
            const std::int64_t start = provider_.nowNs();
            Result<std::vector<double>> one = inner().timeLaunches({&launch, 1}, timedStart);
            if (!one) return one;
            // Long enough that a sampling run spans several decode periods.
            std::this_thread::sleep_for(std::chrono::milliseconds(kernelSleepMs));
            ActivityRecord kernel;
            kernel.kind = ActivityRecord::Kind::Kernel;
            kernel.name = "kernel_" + launch.call.kernelName;
            kernel.startNs = start;
            kernel.endNs = provider_.nowNs();
            provider_.injectActivity(kernel);
            times.push_back((*one)[0]);
        }
        return times;
    }
    Status settle() override {
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
        return Status::ok();
    }

    int kernelSleepMs = 2;

  private:
    void record(ActivityRecord::Kind kind, std::string name, std::uint64_t bytes, void* pointer) {
        ActivityRecord activity;
        activity.kind = kind;
        activity.name = std::move(name);
        activity.startNs = activity.endNs = provider_.nowNs();
        activity.bytes = bytes;
        activity.address = reinterpret_cast<std::uint64_t>(pointer);
        provider_.injectActivity(activity);
    }

    FakeCounterProvider& provider_;
};

}  // namespace fusescope::testing_support
