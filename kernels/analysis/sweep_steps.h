#pragma once
// Problem sizes for a size sweep: log-spaced from `from` to `to`, both ends included.
#include <cstdint>
#include <vector>

#include "core/status.h"

namespace fusescope {

// The most points one sweep may ask for: enough for 2^0 .. 2^40 at 8 steps per octave.
constexpr int kMaxStepsPerOctave = 8;

// Sizes from `from` to `to` (inclusive, any N, not only powers of two) with `stepsPerOctave`
// steps per doubling, rounded to whole elements, strictly increasing, no duplicates.
// Errors: from == 0, to < from, stepsPerOctave outside 1..kMaxStepsPerOctave.
Result<std::vector<std::uint64_t>> logSteps(std::uint64_t from, std::uint64_t to,
                                            int stepsPerOctave);

}  // namespace fusescope
