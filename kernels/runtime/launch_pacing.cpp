#include "runtime/launch_pacing.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace fusescope {
namespace {

// Everything that makes two sequences the same work: which code and which call on which problem.
// Not the buffers: a measured run's new buffers take as long as the timed run's did.
std::string sequenceKey(std::span<const KernelLaunch> launches) {
    std::string key;
    for (const KernelLaunch& launch : launches) {
        key += std::to_string(reinterpret_cast<std::uintptr_t>(launch.execution)) + '|' +
               launch.call.variant + '|' + launch.call.kernelName + '|' +
               std::to_string(launch.call.kernelIndex);
        if (const Problem* problem = launch.call.problem) {
            key += "|dtype" + std::to_string(static_cast<int>(problem->dtype));
            for (const auto& [name, value] : problem->dimensions)
                key += '|' + name + '=' + std::to_string(value);
            for (const auto& [name, value] : problem->tuning)
                key += '|' + name + '=' + std::to_string(value);
        }
        key += ';';
    }
    return key;
}

}  // namespace

bool enqueueOneAtATime(std::size_t launchCount, std::span<const double> expectedMs) {
    if (launchCount <= 1) return false;
    if (expectedMs.size() != launchCount) return true;
    const double total = std::accumulate(expectedMs.begin(), expectedMs.end(), 0.0);
    const double longest = *std::max_element(expectedMs.begin(), expectedMs.end());
    return total - longest > kQueuedWorkLimitMs;
}

std::vector<double> LaunchTimesMemory::expected(std::span<const KernelLaunch> launches) const {
    const auto found = times_.find(sequenceKey(launches));
    return found == times_.end() ? std::vector<double>() : found->second;
}

void LaunchTimesMemory::remember(std::span<const KernelLaunch> launches,
                                 std::vector<double> timesMs) {
    if (times_.size() >= kMaxSequences) times_.clear();
    times_[sequenceKey(launches)] = std::move(timesMs);
}

}  // namespace fusescope
