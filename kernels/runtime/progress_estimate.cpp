#include "runtime/progress_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fusescope {
namespace {

std::string formatSeconds(double seconds) {
    char text[32];
    if (seconds < 10.0)
        std::snprintf(text, sizeof text, "%.1f s", seconds);
    else if (seconds < 60.0)
        std::snprintf(text, sizeof text, "%.0f s", seconds);
    else {
        const auto whole = static_cast<long long>(std::lround(seconds));
        std::snprintf(text, sizeof text, "%lld min %02lld s", whole / 60, whole % 60);
    }
    return text;
}

}  // namespace

ProgressEstimate ProgressClock::at(double fraction) const {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return estimateProgress(fraction, elapsed);
}

ProgressEstimate estimateProgress(double fraction, double elapsedSeconds) {
    ProgressEstimate estimate;
    estimate.elapsedSeconds = elapsedSeconds;
    if (fraction >= 0.02 && fraction < 1.0 && elapsedSeconds >= 0.5)
        estimate.remainingSeconds = elapsedSeconds * (1.0 - fraction) / fraction;
    return estimate;
}

std::string describeProgress(const ProgressEstimate& estimate) {
    if (estimate.elapsedSeconds < 1.0) return {};
    std::string text = formatSeconds(estimate.elapsedSeconds) + " elapsed";
    if (estimate.remainingSeconds)
        text += ", about " + formatSeconds(std::max(*estimate.remainingSeconds, 1.0)) + " left";
    return text;
}

std::string_view progressStageKey(std::string_view text) {
    return text.substr(0, std::min(text.find(':'), text.find(" · ")));
}

}  // namespace fusescope
