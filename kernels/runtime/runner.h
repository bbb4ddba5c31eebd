#pragma once
// Runs the variants of one pipeline on a backend: allocate, fill, poison, check against the CPU
// reference, warm up, time, free. Also times the copy roofline in the same run.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "runtime/allocation_tracker.h"
#include "runtime/backend.h"

namespace fusescope {

struct RunRequest {
    std::string pipeline;
    std::vector<std::string> variants;  // empty: every variant
    std::uint64_t n = 1u << 24;
    int vectorWidth = 4;
    int repeats = 20;
    int warmup = 3;
    std::uint32_t seed = 1234;
};

struct KernelResult {
    std::string name;
    KernelId id = KernelId::Count;
    double timeMs = 0.0;  // median over repeats
    std::uint64_t modelBytesRead = 0;
    std::uint64_t modelBytesWritten = 0;
    KernelResources resources;
};

struct CheckResult {
    double maxRelativeError = 0.0;
    std::uint64_t unwrittenElements = 0;  // outputs still holding the poison
    bool ok = false;
};

struct VariantResult {
    std::string pipeline;
    std::string variant;
    std::uint64_t n = 0;
    int vectorWidth = 1;
    BackendKind backend = BackendKind::Cpu;
    int passes = 0;
    std::uint64_t modelBytesRead = 0;
    std::uint64_t modelBytesWritten = 0;
    double timeMs = 0.0;  // median of the per-repeat sums over kernels
    std::vector<double> repeatTimesMs;
    std::uint64_t peakBytesInFlight = 0;
    CheckResult check;
    std::vector<KernelResult> kernels;
    std::vector<AllocationEvent> allocations;  // this variant's, on the run's clock

    double effectiveGBps() const;  // model bytes over time
};

struct RooflineResult {
    double timeMs = 0.0;
    std::uint64_t bytesMoved = 0;  // read + written
    double gbps() const { return timeMs > 0 ? bytesMoved / (timeMs * 1e6) : 0.0; }
};

struct RunReport {
    DeviceInfo device;
    RooflineResult roofline;
    std::vector<VariantResult> variants;
    std::vector<AllocationEvent> allocations;  // every event of the run
};

// Receives progress on the runner's thread; `cancelled` is polled between repeats.
class RunObserver {
  public:
    virtual ~RunObserver() = default;
    virtual void progress(double fraction, std::string_view stage) { (void)fraction, (void)stage; }
    virtual void variantFinished(const VariantResult& result) { (void)result; }
    virtual bool cancelled() const { return false; }
};

// Checks a request against the registry and the device's memory before anything is allocated.
Status validateRequest(const RunRequest& request, const DeviceInfo& device);
// Largest N the variants of the request fit in on this device (by their footprints).
std::uint64_t maxElementsFor(const RunRequest& request, const DeviceInfo& device);

Result<RunReport> runPipeline(Backend& backend, const RunRequest& request, RunObserver& observer);

}  // namespace fusescope
