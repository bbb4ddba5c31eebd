#pragma once
// Per-launch counters through the CUPTI Range Profiler: auto range, kernel replay, one range per
// device kernel, summed over the kernels one launch starts.
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "runtime/runner.h"

namespace fusescope::cupti {

// The metrics of KernelCounters, in its field order.
const std::vector<const char*>& rangeMetrics();

// Counter availability of the context, as the Range Profiler sees it. This is where a driver
// that restricts profiling to administrators first says so.
Result<std::vector<std::uint8_t>> rangeCounterAvailability();

// Runs `launch` in one Range Profiler session: the counters of every device kernel it started,
// in order (at least one, or an error).
Result<std::vector<KernelCounters>> measureRanges(const std::string& chip,
                                                  const std::vector<std::uint8_t>& availability,
                                                  const std::function<Status()>& launch);

// Runs `launch` in its own Range Profiler session and sums the counters of every device kernel
// it started (at least one, or an error).
Result<KernelCounters> measureLaunch(const std::string& chip,
                                     const std::vector<std::uint8_t>& availability,
                                     const std::function<Status()>& launch);

}  // namespace fusescope::cupti
