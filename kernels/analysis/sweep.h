#pragma once
// A size sweep: one or more variants of a pipeline run over log-spaced N, from a few thousand
// elements (launch-bound) past the L2 to large arrays (bandwidth-bound), each point through the
// runner, then the launch-overhead + bandwidth model fitted per variant.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/fit.h"
#include "analysis/sweep_steps.h"
#include "core/status.h"
#include "runtime/backend.h"
#include "runtime/run_settings.h"
#include "runtime/runner.h"

namespace fusescope {

// Where a sweep stops when no end is given: 2^28 elements (1 GiB per float32 array, the size the
// lessons quote) on a GPU; 2^24 on the CPU backend, whose bandwidth is ~100x lower. Both are
// lowered further to what fits in the device's free memory.
constexpr std::uint64_t kDefaultSweepEndCuda = std::uint64_t{1} << 28;
constexpr std::uint64_t kDefaultSweepEndCpu = std::uint64_t{1} << 24;
constexpr std::uint64_t kDefaultSweepStart = 4096;

struct SweepRequest {
    std::string pipeline;
    std::vector<std::string> variants;  // empty: every variant
    std::uint64_t from = kDefaultSweepStart;
    std::uint64_t to = 0;  // 0: defaultSweepEnd()
    int stepsPerOctave = 1;
    int vectorWidth = kDefaultVectorWidth;
    RunSettings settings;  // at every point
    Target target;
};

struct SweepPoint {
    std::uint64_t n = 0;
    std::uint64_t bytes = 0;  // by the pass model, read + written
    int launches = 0;
    double timeMs = 0.0;  // median of the repeats
    bool checkOk = false;
    double maxRelativeError = 0.0;
    double rooflineGBps = 0.0;  // the copy roofline measured at the same N

    double effectiveGBps() const { return timeMs > 0 ? bytes / (timeMs * 1e6) : 0.0; }
};

struct SweepSeries {
    std::string variant;
    std::string title;
    int launches = 0;
    double bytesPerElement = 0.0;  // by the pass model
    std::vector<SweepPoint> points;
    std::optional<LaunchBandwidthFit> fit;  // robust, over the points whose output was correct
    std::string fitError;                   // why there is no fit, when there is none

    std::optional<Regime> regimeAt(const SweepPoint& point) const;
    // (measured - fitted) / fitted time: where one bandwidth does not describe the point, e.g.
    // arrays that stay in the L2 and run faster than DRAM allows.
    std::optional<double> residualAt(const SweepPoint& point) const;
};

struct SweepReport {
    DeviceInfo device;
    std::string pipeline;
    int vectorWidth = 1;
    int repeats = 0;
    std::vector<std::uint64_t> sizes;
    std::vector<SweepSeries> series;  // one per variant, in the order asked for
};

// The largest N a sweep goes to by default on this device (see kDefaultSweepEnd*).
std::uint64_t defaultSweepEnd(const SweepRequest& request, const DeviceInfo& device);
// The run at one size: the pipeline's default problem with its size dimension set to `n` (and
// the vector width, where the pipeline has one), with the sweep's settings and target.
RunRequest sweepPointRequest(const SweepRequest& request, std::uint64_t n);
// The sizes the request sweeps on this device, after checking pipeline, variants, vector width,
// repeats, range and memory; errors are one sentence naming what is wrong.
Result<std::vector<std::uint64_t>> sweepSizes(const SweepRequest& request,
                                              const DeviceInfo& device);

// The sweep as one point per variant and size. Progress covers the whole sweep; each variant's
// result at each N reaches observer.variantFinished() as it is measured (its problem says which
// N), so a GUI can draw the sweep while it grows. Cancellation is checked between repeats.
Result<SweepReport> runSweep(Backend& backend, const SweepRequest& request, RunObserver& observer);

// Fits the series to its points whose output was correct; sets fit or fitError.
void fitSeries(SweepSeries& series);

}  // namespace fusescope
