#pragma once
// How many timed launches a GPU backend lets wait in its stream. A launch cannot be stopped once
// the GPU has it, so a cancel leaves everything already enqueued to finish. Launches expected to
// be long are therefore enqueued one at a time, the next once the previous has finished; short
// ones stay back to back, where waiting in between would cost more than a cancel could save.
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "runtime/backend.h"

namespace fusescope {

// Work a cancel may leave queued behind the launch that is running: far below the half second a
// cancel has, and long enough that launches of a few milliseconds stay back to back.
inline constexpr double kQueuedWorkLimitMs = 50.0;

// Whether launches expected to take `expectedMs` each (empty: not known yet) are enqueued one at
// a time: when a cancel just after the start would leave more than kQueuedWorkLimitMs queued
// behind the longest launch. Unknown launches go one at a time (they may be long); a single
// launch never needs to.
bool enqueueOneAtATime(std::size_t launchCount, std::span<const double> expectedMs);

// The times each sequence of launches took the last time it was timed, by what it runs: the
// kernels and their problem.
class LaunchTimesMemory {
  public:
    // Empty when this sequence has not been timed yet.
    std::vector<double> expected(std::span<const KernelLaunch> launches) const;
    void remember(std::span<const KernelLaunch> launches, std::vector<double> timesMs);

  private:
    // A run times a few sequences many times: a small memory, emptied when it fills up.
    static constexpr std::size_t kMaxSequences = 256;
    std::map<std::string, std::vector<double>> times_;
};

}  // namespace fusescope
