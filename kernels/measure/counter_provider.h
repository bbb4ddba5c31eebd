#pragma once
// The counter layer behind one interface: per-kernel hardware counters (CUPTI Range Profiler),
// DRAM throughput over time (CUPTI PM sampling) and kernel/allocation records (CUPTI Activity
// API), all on one clock. Implementations: FakeCounterProvider (tests) and the CUPTI provider,
// a module loaded at run time so that a missing libcupti is a refusal, not a crash.
// Header-only on purpose: the CUPTI module implements it across a dlopen boundary.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "measure/counter_refusal.h"
#include "runtime/runner.h"

namespace fusescope {

// What a counter provider can do here, and if nothing, why in plain words.
struct CounterCapability {
    bool available = false;
    CounterRefusal refusal = CounterRefusal::None;
    std::string reason;       // why counters cannot be measured (empty when available)
    std::string adminAdvice;  // what an administrator can change (empty when nothing helps)
    std::string provider;     // "CUPTI 13.0 on NVIDIA H200 (GH100)", "fake"
};

// A record of the CUPTI Activity API, on the provider's clock (absolute ns).
struct ActivityRecord {
    enum class Kind { Kernel, Allocate, Free };
    Kind kind = Kind::Kernel;
    std::string name;  // kernel name; empty for memory records
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;  // memory records: equal to startNs
    std::uint64_t bytes = 0;
    std::uint64_t address = 0;
};

// What one poll hands over: samples on the provider's clock (absolute ns, the
// first sample of a session already dropped: it spans from configuration to start).
struct SamplingBatch {
    std::vector<BandwidthSample> samples;
    std::vector<ActivityRecord> activity;
};

// Called by pollSampling() and stopSampling() on the thread that runs the kernels (a test's
// provider may call it from a thread of its own), never concurrently with itself.
using SamplingCallback = std::function<void(SamplingBatch&& batch)>;

inline constexpr std::int64_t kMinSamplingIntervalNs = 10'000;     // 10 us works on the H200
inline constexpr std::int64_t kMaxSamplingIntervalNs = 1'000'000;  // 1 ms

inline Status validateSamplingInterval(std::int64_t intervalNs) {
    if (intervalNs < kMinSamplingIntervalNs || intervalNs > kMaxSamplingIntervalNs)
        return Status(ErrorCode::InvalidArgument, "sampling interval " +
                                                      std::to_string(intervalNs / 1000) +
                                                      " us is outside 10 us .. 1000 us");
    return Status::ok();
}

struct SamplingStats {
    std::uint64_t samples = 0;          // delivered (after dropping the first)
    double decodeCpuSeconds = 0.0;      // CPU time spent decoding samples and records
    std::uint64_t droppedRecords = 0;   // activity records CUPTI dropped
    std::uint64_t bufferOverflows = 0;  // hardware sample buffer overflows (samples lost)
};

class CounterProvider {
  public:
    virtual ~CounterProvider() = default;

    // Probes once (on the thread that owns the GPU) and remembers the answer.
    virtual CounterCapability capability() = 0;

    // Runs each of `launches` launches (`launchOne(i)`) with the Range Profiler on and returns
    // each launch's counters in order, summed over the device kernels it started
    // (KernelCounters::deviceKernels says how many). Each launch is measured on its own and run
    // once per pass the metrics need, each time right after `evictCaches` (its kernel left out of
    // the counters): so a range counts its launch's traffic from an L2 with nothing dirty in it,
    // as Nsight Compute's cache control does, never the write-back of what ran before. A launch
    // must do the same work each time (the pipelines' kernels only read their inputs and
    // overwrite their outputs). A launch that starts no kernel is an error.
    virtual Result<std::vector<KernelCounters>> measureLaunches(
        std::size_t launches, const std::function<Status(std::size_t)>& launchOne,
        const std::function<Status()>& evictCaches) = 0;

    // PM sampling of DRAM read/write bytes plus Activity records, until stopSampling().
    virtual Status startSampling(std::int64_t intervalNs, SamplingCallback callback) = 0;
    // Decodes what is ready and delivers it through the callback, on the calling thread (the one
    // that runs the kernels: CUPTI is never called from two threads at once).
    virtual Status pollSampling() { return Status::ok(); }
    // Stops and delivers the last batch through the callback.
    virtual Result<SamplingStats> stopSampling() = 0;

    // Now, on the clock of the samples and activity records.
    virtual std::int64_t nowNs() = 0;
};

// The CUPTI provider when it can be loaded, otherwise one that refuses with the reason
// (built without CUDA, libcupti.so.13 not found, no driver). Never null.
std::unique_ptr<CounterProvider> createCounterProvider();

}  // namespace fusescope
