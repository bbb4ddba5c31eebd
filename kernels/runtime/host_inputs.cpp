#include "runtime/host_inputs.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>

#include "runtime/parallel.h"

namespace fusescope {
namespace {

std::uint32_t hash32(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

bool isPoison(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits == 0xFFFFFFFFu;
}

}  // namespace

void fillUniform(float* data, std::uint64_t n, std::uint32_t seed, std::uint32_t stream, float low,
                 float high) {
    const std::uint32_t key = hash32(seed * 2654435761u ^ hash32(stream + 1));
    parallelFor(n, hardwareThreads(), [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i) {
            const auto lo = static_cast<std::uint32_t>(i);
            const auto hi = static_cast<std::uint32_t>(i >> 32);
            const std::uint32_t h = hash32(hash32(lo ^ key) + hi * 0x9E3779B9u);
            data[i] = low + (high - low) * static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
        }
    });
}

CheckResult checkOutput(const PipelineSpec& pipeline, const float* const* inputs,
                        const float* output, std::uint64_t n) {
    // Above kReferenceSampleElements, one element of each equal stretch of the output, at an
    // offset that varies from stretch to stretch (so vector lanes and tails are all visited),
    // plus the last elements, where scalar tails live.
    constexpr std::uint64_t kTailElements = 64;
    const bool sampled = n > kReferenceSampleElements;
    const std::uint64_t stretches = sampled ? kReferenceSampleElements - kTailElements : n;
    const std::uint64_t stretch = sampled ? n / stretches : 1;
    CheckResult result;
    std::mutex merge;
    const auto compare = [&](std::uint64_t i, double& worst) {
        if (isPoison(output[i])) return;
        const double expected = pipeline.reference(inputs, i);
        const double actual = output[i];
        // Relative to the value, with a floor so that results near zero compare absolutely.
        const double error = std::abs(actual - expected) / std::max(std::abs(expected), 1e-6);
        worst = std::isnan(error) ? INFINITY : std::max(worst, error);
    };
    parallelFor(n, hardwareThreads(), [&](std::uint64_t begin, std::uint64_t end) {
        std::uint64_t unwritten = 0;
        for (std::uint64_t i = begin; i < end; ++i) unwritten += isPoison(output[i]) ? 1 : 0;
        std::lock_guard lock(merge);
        result.unwrittenElements += unwritten;
    });
    parallelFor(stretches, hardwareThreads(), [&](std::uint64_t begin, std::uint64_t end) {
        double worst = 0.0;
        for (std::uint64_t s = begin; s < end; ++s)
            compare(sampled ? s * stretch + hash32(static_cast<std::uint32_t>(s)) % stretch : s,
                    worst);
        std::lock_guard lock(merge);
        result.maxRelativeError = std::max(result.maxRelativeError, worst);
    });
    if (sampled) {
        double worst = 0.0;
        for (std::uint64_t i = n - kTailElements; i < n; ++i) compare(i, worst);
        result.maxRelativeError = std::max(result.maxRelativeError, worst);
    }
    result.comparedElements = sampled ? stretches + kTailElements : n;
    constexpr double kFloat32Tolerance = 1e-5;
    result.ok = result.unwrittenElements == 0 && result.maxRelativeError <= kFloat32Tolerance;
    return result;
}

}  // namespace fusescope
