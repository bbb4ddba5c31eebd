#pragma once
// How much slower than a release build this test binary may run: FUSESCOPE_TIMING_SLACK (the
// sanitizer preset sets 4), at least 1. Time limits in tests are multiplied by it, so that an
// instrumented build checks the same behaviour without failing on its own slowness.
#include <algorithm>
#include <cstdlib>

namespace testsupport {

inline double timingSlack() {
    const char* text = std::getenv("FUSESCOPE_TIMING_SLACK");
    return text ? std::max(1.0, std::atof(text)) : 1.0;
}

}  // namespace testsupport
