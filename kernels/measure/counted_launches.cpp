#include "measure/counted_launches.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "core/median.h"

namespace fusescope {
namespace {

CountSpread spreadOf(const std::vector<double>& values) {
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    return {*low, *high};
}

// One count of every launch; empty where any launch lacks it.
template <typename Count>
std::vector<double> countsOf(std::span<const KernelCounters> launches, Count count) {
    std::vector<double> values;
    for (const KernelCounters& launch : launches) {
        const auto& value = launch.*count;
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, double>) {
            values.push_back(value);
        } else {
            if (!value) return {};
            values.push_back(*value);
        }
    }
    return values;
}

std::optional<double> medianIfCounted(const std::vector<double>& values) {
    if (values.empty()) return std::nullopt;
    return median(values);
}

}  // namespace

Status validateCountedLaunches(int launches) {
    if (launches >= 1 && launches <= kMaxCountedLaunches) return Status::ok();
    return Status(ErrorCode::InvalidArgument, "counted launches must be 1 to " +
                                                  std::to_string(kMaxCountedLaunches) + ", not " +
                                                  std::to_string(launches));
}

KernelCounters combineCountedLaunches(std::span<const KernelCounters> launches) {
    if (launches.size() <= 1) return launches.empty() ? KernelCounters{} : launches.front();
    const std::vector<double> dramRead = countsOf(launches, &KernelCounters::dramBytesRead);
    const std::vector<double> dramWritten = countsOf(launches, &KernelCounters::dramBytesWritten);
    const std::vector<double> l2Read = countsOf(launches, &KernelCounters::l2SectorsRead);
    KernelCounters combined;
    combined.dramBytesRead = median(dramRead);
    combined.dramBytesWritten = median(dramWritten);
    combined.sectorsRead = medianIfCounted(countsOf(launches, &KernelCounters::sectorsRead));
    combined.sectorsWritten = medianIfCounted(countsOf(launches, &KernelCounters::sectorsWritten));
    combined.l2SectorsRead = medianIfCounted(l2Read);
    combined.l2SectorsWritten =
        medianIfCounted(countsOf(launches, &KernelCounters::l2SectorsWritten));
    // The same launch starts the same device kernels every time.
    combined.deviceKernels = launches.front().deviceKernels;
    combined.countedLaunches = static_cast<std::uint32_t>(launches.size());
    combined.dramReadSpread = spreadOf(dramRead);
    combined.dramWrittenSpread = spreadOf(dramWritten);
    if (!l2Read.empty()) combined.l2SectorsReadSpread = spreadOf(l2Read);
    return combined;
}

bool spreadExceedsTolerance(const CountSpread& spread, double median) {
    constexpr double kRelative = 0.03;
    constexpr double kAbsoluteBytes = 1e6;
    return spread.high - spread.low > std::max(kRelative * median, kAbsoluteBytes);
}

}  // namespace fusescope
