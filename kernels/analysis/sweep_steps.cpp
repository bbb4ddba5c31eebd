#include "analysis/sweep_steps.h"

#include <cmath>
#include <string>

namespace fusescope {

Result<std::vector<std::uint64_t>> logSteps(std::uint64_t from, std::uint64_t to,
                                            int stepsPerOctave) {
    if (from == 0) return Status(ErrorCode::InvalidArgument, "the sweep must start at N >= 1");
    if (to < from)
        return Status(ErrorCode::InvalidArgument,
                      "the sweep's end N = " + std::to_string(to) +
                          " is below its start N = " + std::to_string(from));
    if (stepsPerOctave < 1 || stepsPerOctave > kMaxStepsPerOctave)
        return Status(ErrorCode::InvalidArgument, "steps per octave must be 1 to " +
                                                      std::to_string(kMaxStepsPerOctave) +
                                                      ", not " + std::to_string(stepsPerOctave));

    std::vector<std::uint64_t> sizes{from};
    // Multiply in floating point from the start each time, so rounding errors do not accumulate.
    const double ratio = std::pow(2.0, 1.0 / stepsPerOctave);
    for (int k = 1;; ++k) {
        const double next = std::round(static_cast<double>(from) * std::pow(ratio, k));
        if (next >= static_cast<double>(to)) break;
        const auto size = static_cast<std::uint64_t>(next);
        if (size > sizes.back()) sizes.push_back(size);
    }
    if (to > sizes.back()) {
        // A last interior step much closer to `to` than a step adds a point with no information.
        if (sizes.size() > 1 && static_cast<double>(to) / sizes.back() < std::sqrt(ratio))
            sizes.pop_back();
        sizes.push_back(to);
    }
    return sizes;
}

}  // namespace fusescope
