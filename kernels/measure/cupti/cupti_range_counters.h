#pragma once
// Per-launch counters through the CUPTI Range Profiler: auto range (one range per device kernel,
// summed over the kernels one launch starts) and user replay, so that the caller's cache eviction
// runs before every pass. Kernel replay would save and restore memory between its passes inside
// the launch, leaving dirty L2 lines that the next pass writes back and counts.
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

// Runs `launch` in one Range Profiler session, once per pass the metrics need, each time right
// after `evictCaches` (whose kernel's range is left out): the counters of every device kernel the
// launch started, in order (at least one, or an error).
Result<std::vector<KernelCounters>> measureRanges(const std::string& chip,
                                                  const std::vector<std::uint8_t>& availability,
                                                  const std::function<Status()>& launch,
                                                  const std::function<Status()>& evictCaches);

// measureRanges, summed over the device kernels the launch started.
Result<KernelCounters> measureLaunch(const std::string& chip,
                                     const std::vector<std::uint8_t>& availability,
                                     const std::function<Status()>& launch,
                                     const std::function<Status()>& evictCaches);

}  // namespace fusescope::cupti
