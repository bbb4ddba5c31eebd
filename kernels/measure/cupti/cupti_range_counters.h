#pragma once
// Per-kernel counters through the CUPTI Range Profiler: auto range, kernel replay, one range per
// kernel launch.
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "runtime/runner.h"

namespace fusescope::cupti {

// The four metrics of KernelCounters, in its field order.
const std::vector<const char*>& rangeMetrics();

// Counter availability of the context, as the Range Profiler sees it. This is where a driver
// that restricts profiling to administrators first says so.
Result<std::vector<std::uint8_t>> rangeCounterAvailability();

Result<std::vector<KernelCounters>> measureRanges(const std::string& chip,
                                                  const std::vector<std::uint8_t>& availability,
                                                  std::size_t expectedKernels,
                                                  const std::function<Status()>& launch);

}  // namespace fusescope::cupti
