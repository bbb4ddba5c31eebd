#pragma once
// A kernel counted over several launches. How many of its re-reads the L2 catches depends on
// which blocks happen to run together, so one launch's DRAM bytes are one draw: the counter run
// counts each launch a few times and keeps each count's median, and the range of the counts
// that move with the L2 (DRAM read and written, L2 read requests).
#include <cstdint>
#include <span>

#include "core/status.h"
#include "runtime/runner.h"

namespace fusescope {

inline constexpr int kDefaultCountedLaunches = 3;
inline constexpr int kMaxCountedLaunches = 9;

// Refuses a number of counted launches outside 1 .. kMaxCountedLaunches, in words.
Status validateCountedLaunches(int launches);

// Each count the median of the launches (a count some launch lacks stays empty); the spreads and
// countedLaunches set where there are two or more. One launch comes back as it was.
KernelCounters combineCountedLaunches(std::span<const KernelCounters> launches);

// Whether a count moved between launches by more than a comparison with Nsight Compute allows:
// 3% of its median or 1 MB, whichever is larger.
bool spreadExceedsTolerance(const CountSpread& spread, double median);

}  // namespace fusescope
