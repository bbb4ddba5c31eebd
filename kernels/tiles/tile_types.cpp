#include "tiles/tile_types.h"

#include <algorithm>
#include <utility>

namespace fusescope::tiles {
namespace {

constexpr std::pair<RefusalKind, const char*> kRefusalKeys[] = {
    {RefusalKind::SharedMemory, "shared_memory"},
    {RefusalKind::Threads, "threads"},
    {RefusalKind::MmaShape, "mma_shape"},
    {RefusalKind::LargerThanProblem, "larger_than_problem"},
    {RefusalKind::NotTunable, "not_tunable"},
    {RefusalKind::NoCompiler, "no_compiler"},
    {RefusalKind::CompileFailed, "compile_failed"},
    {RefusalKind::LaunchFailed, "launch_failed"},
};

// The value at fraction q of sorted values, interpolating between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(position);
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double weight = position - static_cast<double>(below);
    return sorted[below] * (1.0 - weight) + sorted[above] * weight;
}

}  // namespace

std::string refusalKindKey(RefusalKind kind) {
    for (const auto& [k, key] : kRefusalKeys)
        if (k == kind) return key;
    return "not_tunable";
}

std::optional<RefusalKind> refusalKindFromKey(const std::string& key) {
    for (const auto& [k, name] : kRefusalKeys)
        if (key == name) return k;
    return std::nullopt;
}

TimingSpread spreadOf(std::vector<double> timesMs) {
    TimingSpread spread;
    if (timesMs.empty()) return spread;
    std::sort(timesMs.begin(), timesMs.end());
    spread.medianMs = quantile(timesMs, 0.5);
    spread.q1Ms = quantile(timesMs, 0.25);
    spread.q3Ms = quantile(timesMs, 0.75);
    spread.minMs = timesMs.front();
    spread.maxMs = timesMs.back();
    spread.repeats = static_cast<int>(timesMs.size());
    return spread;
}

bool overlaps(const TimingSpread& a, const TimingSpread& b) {
    const auto low = [](const TimingSpread& t) {
        return std::min(t.q1Ms, t.medianMs * (1.0 - kTimingNoiseFloor));
    };
    const auto high = [](const TimingSpread& t) {
        return std::max(t.q3Ms, t.medianMs * (1.0 + kTimingNoiseFloor));
    };
    return low(a) <= high(b) && low(b) <= high(a);
}

std::vector<TileConfiguration> configurationsOf(const TileSweepRequest& request) {
    std::vector<TileConfiguration> configurations = {request.base};
    for (const TileAxis& axis : request.axes) {
        std::vector<TileConfiguration> next;
        for (const TileConfiguration& configuration : configurations)
            for (int value : axis.values) {
                TileConfiguration c = configuration;
                c.problem.tuning[axis.tuning] = value;
                next.push_back(std::move(c));
            }
        configurations = std::move(next);
    }
    return configurations;
}

}  // namespace fusescope::tiles
