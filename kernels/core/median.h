#pragma once
// The median of a set of measurements: the middle value, or the mean of the middle two; 0 for
// none. Shared by the timed run (repeats) and the counter run (counted launches).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace fusescope {

inline double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (values.size() % 2 == 1) return *middle;
    const double upper = *middle;
    const double lower = *std::max_element(values.begin(), middle);
    return (lower + upper) / 2.0;
}

}  // namespace fusescope
