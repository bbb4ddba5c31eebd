#pragma once
// The launch-overhead + bandwidth model of a size sweep:
//     time = launches x overhead + bytes / bandwidth
// fitted by least squares on relative residuals, so that microsecond points at small N weigh
// as much as millisecond points at large N.
#include <cstdint>
#include <span>

#include "core/status.h"

namespace fusescope {

// One measured point of a sweep: what the model needs and nothing else.
struct FitSample {
    std::uint64_t n = 0;  // elements; used only for the regime boundary
    int launches = 1;     // kernel launches per run of the variant
    double bytes = 0.0;   // bytes moved by the pass model (read + written)
    double timeMs = 0.0;  // measured time of one run of the variant
};

enum class Regime { LaunchBound, BandwidthBound };
const char* regimeName(Regime regime);  // "launch", "bandwidth"

struct LaunchBandwidthFit {
    double overheadUs = 0.0;     // per launch
    double bandwidthGBps = 0.0;  // 1e9 bytes per second
    // The unconstrained fit gave a negative overhead (noise where launches cost nearly nothing):
    // the overhead is then fixed at zero and only the bandwidth is fitted.
    bool overheadClamped = false;
    // N where the two terms are equal, when every sample has the same launches and bytes per
    // element (one variant); 0 when the samples mix those or the overhead is zero.
    double boundaryN = 0.0;
    double rmsRelativeResidual = 0.0;  // of time, over the samples that were fitted
    int samples = 0;                   // fitted (with a weight above zero)
    int samplesSetAside = 0;           // by the robust fit: too far from the model to describe

    double launchTermMs(int launches) const { return launches * overheadUs * 1e-3; }
    double bandwidthTermMs(double bytes) const {
        return bandwidthGBps > 0 ? bytes / (bandwidthGBps * 1e6) : 0.0;
    }
    double predictedTimeMs(int launches, double bytes) const {
        return launchTermMs(launches) + bandwidthTermMs(bytes);
    }
    // N where a variant with these launches and bytes per element changes regime.
    double boundaryElements(int launches, double bytesPerElement) const;
    Regime regimeAt(int launches, double bytes) const;
};

// Errors, in words: fewer than two samples, a time or byte count that is not positive and
// finite, all samples with the same bytes per launch (N must vary), or times that do not grow
// with bytes (no bandwidth term to fit).
Result<LaunchBandwidthFit> fitLaunchBandwidth(std::span<const FitSample> samples);

// The same model, fitted robustly (Tukey's biweight, iteratively reweighted): samples that one
// overhead and one bandwidth cannot describe are set aside instead of dragging both numbers.
// On a GPU those are mostly sizes whose arrays stay in the L2 and beat the DRAM bandwidth.
// With at most a few percent of noise and no such samples it equals fitLaunchBandwidth.
Result<LaunchBandwidthFit> fitLaunchBandwidthRobust(std::span<const FitSample> samples);

}  // namespace fusescope
