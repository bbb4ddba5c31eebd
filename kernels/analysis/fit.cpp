#include "analysis/fit.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace fusescope {
namespace {

Status invalid(std::string message) {
    return Status(ErrorCode::InvalidArgument, std::move(message));
}

Status checkSamples(std::span<const FitSample> samples) {
    if (samples.size() < 2)
        return invalid("the fit needs at least two sizes, got " + std::to_string(samples.size()));
    for (const FitSample& sample : samples) {
        const std::string where = " at N = " + std::to_string(sample.n);
        if (sample.launches < 1) return invalid("a sample has no kernel launches" + where);
        if (!std::isfinite(sample.bytes) || sample.bytes <= 0)
            return invalid("a sample moves no bytes" + where);
        if (!std::isfinite(sample.timeMs) || sample.timeMs <= 0)
            return invalid("a sample has no positive time" + where);
    }
    // The two terms can only be told apart if bytes per launch vary between samples.
    const auto perLaunch = [](const FitSample& s) { return s.bytes / s.launches; };
    const auto [smallest, largest] = std::minmax_element(
        samples.begin(), samples.end(),
        [&](const FitSample& a, const FitSample& b) { return perLaunch(a) < perLaunch(b); });
    if (perLaunch(*largest) <= perLaunch(*smallest) * (1.0 + 1e-9))
        return invalid(
            "every sample moves the same bytes per launch: the sweep must vary N to separate "
            "launch overhead from bandwidth");
    return Status::ok();
}

// The unknowns of the model: overhead in ms per launch and ms per byte (1 / bandwidth).
struct Solution {
    double overheadMs = 0.0;
    double msPerByte = 0.0;
    bool overheadClamped = false;
};

double relativeResidual(const FitSample& s, const Solution& x) {
    return (s.launches * x.overheadMs + s.bytes * x.msPerByte - s.timeMs) / s.timeMs;
}

// Weighted least squares on relative residuals. Dividing each equation by its own time makes
// the residuals relative:  (launches / t) * overhead + (bytes / t) * msPerByte = 1.
// Row i is multiplied by sqrt(weights[i]); columns are scaled to unit length first, because
// bytes are ~1e9 times launches.
Result<Solution> solveWeighted(std::span<const FitSample> samples,
                               const std::vector<double>& weights) {
    double uu = 0, vv = 0, uv = 0, u1 = 0, v1 = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const double m = std::sqrt(weights[i]);
        const double u = m * samples[i].launches / samples[i].timeMs;
        const double v = m * samples[i].bytes / samples[i].timeMs;
        uu += u * u;
        vv += v * v;
        uv += u * v;
        u1 += u * m;
        v1 += v * m;
    }
    const double su = std::sqrt(uu), sv = std::sqrt(vv);
    const double cosine = su > 0 && sv > 0 ? uv / (su * sv) : 1.0;
    const double determinant = 1.0 - cosine * cosine;  // of the scaled normal equations
    if (determinant < 1e-12)
        return invalid(
            "the sizes are too close together to separate launch overhead from "
            "bandwidth: sweep a wider range of N");
    Solution x;
    x.overheadMs = (u1 / su - cosine * v1 / sv) / determinant / su;
    x.msPerByte = (v1 / sv - cosine * u1 / su) / determinant / sv;
    if (x.overheadMs < 0) {
        // Non-negative least squares with one active constraint: bandwidth alone.
        x.overheadMs = 0;
        x.msPerByte = v1 / vv;
        x.overheadClamped = true;
    }
    if (!(x.msPerByte > 0) || !std::isfinite(x.msPerByte))
        return invalid(
            "the time does not grow with the bytes moved, so there is no bandwidth "
            "to fit: sweep to larger N");
    return x;
}

LaunchBandwidthFit fitFrom(std::span<const FitSample> samples, const Solution& x,
                           const std::vector<double>& weights) {
    LaunchBandwidthFit fit;
    fit.overheadUs = x.overheadMs * 1e3;
    fit.bandwidthGBps = 1.0 / (x.msPerByte * 1e6);
    fit.overheadClamped = x.overheadClamped;
    double sum = 0.0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (weights[i] <= 0) {
            ++fit.samplesSetAside;
            continue;
        }
        ++fit.samples;
        const double r = relativeResidual(samples[i], x);
        sum += r * r;
    }
    fit.rmsRelativeResidual = fit.samples > 0 ? std::sqrt(sum / fit.samples) : 0.0;

    // One variant: the same launches and bytes per element everywhere gives one boundary N.
    const FitSample& first = samples.front();
    const double bytesPerElement = first.n > 0 ? first.bytes / first.n : 0.0;
    const bool uniform = std::all_of(samples.begin(), samples.end(), [&](const FitSample& s) {
        return s.launches == first.launches && s.n > 0 &&
               std::abs(s.bytes / s.n - bytesPerElement) <= 1e-9 * bytesPerElement;
    });
    if (uniform) fit.boundaryN = fit.boundaryElements(first.launches, bytesPerElement);
    return fit;
}

double median(std::vector<double> values) {
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

double medianAbsoluteResidual(std::span<const FitSample> samples, const Solution& x) {
    std::vector<double> absolute;
    for (const FitSample& sample : samples)
        absolute.push_back(std::abs(relativeResidual(sample, x)));
    return median(absolute);
}

// A start that outliers cannot drag (least median of squares over exact two-sample solutions):
// the pair whose model leaves the smallest median residual. Up to half the samples may be off.
std::optional<Solution> leastMedianStart(std::span<const FitSample> samples) {
    std::optional<Solution> best;
    double bestMedian = 0.0;
    for (std::size_t i = 0; i < samples.size(); ++i)
        for (std::size_t j = i + 1; j < samples.size(); ++j) {
            const FitSample& p = samples[i];
            const FitSample& q = samples[j];
            const double determinant = p.launches * q.bytes - q.launches * p.bytes;
            if (std::abs(determinant) <= 1e-12 * std::abs(p.launches * q.bytes)) continue;
            Solution x;
            x.overheadMs = (p.timeMs * q.bytes - q.timeMs * p.bytes) / determinant;
            x.msPerByte = (p.launches * q.timeMs - q.launches * p.timeMs) / determinant;
            if (x.overheadMs < 0 || !(x.msPerByte > 0)) continue;
            const double candidate = medianAbsoluteResidual(samples, x);
            if (!best || candidate < bestMedian) {
                best = x;
                bestMedian = candidate;
            }
        }
    return best;
}

}  // namespace

const char* regimeName(Regime regime) {
    return regime == Regime::LaunchBound ? "launch" : "bandwidth";
}

double LaunchBandwidthFit::boundaryElements(int launches, double bytesPerElement) const {
    if (overheadUs <= 0 || bandwidthGBps <= 0 || bytesPerElement <= 0) return 0.0;
    // launches * overhead = N * bytesPerElement / bandwidth
    return launches * overheadUs * 1e-6 * bandwidthGBps * 1e9 / bytesPerElement;
}

Regime LaunchBandwidthFit::regimeAt(int launches, double bytes) const {
    return launchTermMs(launches) > bandwidthTermMs(bytes) ? Regime::LaunchBound
                                                           : Regime::BandwidthBound;
}

Result<LaunchBandwidthFit> fitLaunchBandwidth(std::span<const FitSample> samples) {
    if (Status s = checkSamples(samples); !s) return s;
    const std::vector<double> weights(samples.size(), 1.0);
    Result<Solution> x = solveWeighted(samples, weights);
    if (!x) return x.status();
    return fitFrom(samples, *x, weights);
}

Result<LaunchBandwidthFit> fitLaunchBandwidthRobust(std::span<const FitSample> samples) {
    if (Status s = checkSamples(samples); !s) return s;
    std::vector<double> weights(samples.size(), 1.0);
    Result<Solution> x = solveWeighted(samples, weights);
    if (!x) return x.status();
    const Solution plain = *x;
    if (std::optional<Solution> start = leastMedianStart(samples)) x = *start;

    // Tukey's biweight, iteratively reweighted: the scale is the median absolute residual
    // (x 1.4826, a standard deviation for normal noise), never below kMinimumScale so that
    // ordinary timing noise is not mistaken for a departure from the model.
    constexpr double kMinimumScale = 0.01;
    constexpr double kTukeyConstant = 4.685;
    constexpr int kMaxIterations = 30;
    const std::size_t keepAtLeast = std::max<std::size_t>(3, (samples.size() + 1) / 2);
    std::vector<double> accepted = weights;
    for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
        std::vector<double> absolute;
        for (const FitSample& sample : samples)
            absolute.push_back(std::abs(relativeResidual(sample, *x)));
        const double cutoff = kTukeyConstant * std::max(kMinimumScale, 1.4826 * median(absolute));
        std::vector<double> next(samples.size());
        std::size_t kept = 0;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const double ratio = absolute[i] / cutoff;
            next[i] = ratio < 1.0 ? (1 - ratio * ratio) * (1 - ratio * ratio) : 0.0;
            if (next[i] > 0) ++kept;
        }
        if (kept < keepAtLeast) {
            // Most samples disagree with any one model: the plain fit says at least that.
            if (iteration == 0) x = plain;
            break;
        }
        Result<Solution> refined = solveWeighted(samples, next);
        if (!refined) break;
        const bool settled =
            std::abs(refined->overheadMs - x->overheadMs) <= 1e-9 * (x->overheadMs + 1e-12) &&
            std::abs(refined->msPerByte - x->msPerByte) <= 1e-9 * x->msPerByte;
        x = refined;
        accepted = next;
        if (settled) break;
    }
    return fitFrom(samples, *x, accepted);
}

}  // namespace fusescope
