#include "analysis/fit.h"

#include <algorithm>
#include <cmath>
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

double rmsRelativeResidual(std::span<const FitSample> samples, double overheadMs,
                           double msPerByte) {
    double sum = 0.0;
    for (const FitSample& s : samples) {
        const double relative =
            (s.launches * overheadMs + s.bytes * msPerByte - s.timeMs) / s.timeMs;
        sum += relative * relative;
    }
    return std::sqrt(sum / static_cast<double>(samples.size()));
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

    // Dividing each equation by its own time makes the residuals relative:
    //     (launches / t) * overhead + (bytes / t) * msPerByte = 1.
    // Columns are scaled to unit length first: bytes are ~1e9 times launches.
    std::vector<double> u, v;
    for (const FitSample& s : samples) {
        u.push_back(s.launches / s.timeMs);
        v.push_back(s.bytes / s.timeMs);
    }
    double uu = 0, vv = 0, uv = 0, u1 = 0, v1 = 0;
    for (std::size_t i = 0; i < u.size(); ++i) {
        uu += u[i] * u[i];
        vv += v[i] * v[i];
        uv += u[i] * v[i];
        u1 += u[i];
        v1 += v[i];
    }
    const double su = std::sqrt(uu), sv = std::sqrt(vv);
    const double cosine = uv / (su * sv);
    const double determinant = 1.0 - cosine * cosine;  // of the scaled normal equations
    if (determinant < 1e-12)
        return invalid(
            "the sizes are too close together to separate launch overhead from "
            "bandwidth: sweep a wider range of N");
    const double a = (u1 / su - cosine * v1 / sv) / determinant;
    const double c = (v1 / sv - cosine * u1 / su) / determinant;
    double overheadMs = a / su;
    double msPerByte = c / sv;

    LaunchBandwidthFit fit;
    if (overheadMs < 0) {
        // Non-negative least squares with one active constraint: bandwidth alone.
        overheadMs = 0;
        msPerByte = v1 / vv;
        fit.overheadClamped = true;
    }
    if (!(msPerByte > 0) || !std::isfinite(msPerByte))
        return invalid(
            "the time does not grow with the bytes moved, so there is no bandwidth "
            "to fit: sweep to larger N");

    fit.overheadUs = overheadMs * 1e3;
    fit.bandwidthGBps = 1.0 / (msPerByte * 1e6);
    fit.samples = static_cast<int>(samples.size());
    fit.rmsRelativeResidual = rmsRelativeResidual(samples, overheadMs, msPerByte);

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

}  // namespace fusescope
