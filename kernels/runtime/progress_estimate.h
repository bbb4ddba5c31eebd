#pragma once
// Elapsed time and an estimate of what is left, from the fraction of a run done: the same
// words in the CLI's progress line and the GUI's run panel.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace fusescope {

struct ProgressEstimate {
    double elapsedSeconds = 0.0;
    std::optional<double> remainingSeconds;  // empty until enough is done to extrapolate
};

class ProgressClock {
  public:
    ProgressClock() : start_(std::chrono::steady_clock::now()) {}
    ProgressEstimate at(double fraction) const;

  private:
    std::chrono::steady_clock::time_point start_;
};

// Extrapolates linearly once 2% is done and half a second has passed; earlier guesses mislead.
ProgressEstimate estimateProgress(double fraction, double elapsedSeconds);

// "12 s elapsed, about 30 s left", "1 min 05 s elapsed"; empty below a second, where nobody
// needs it.
std::string describeProgress(const ProgressEstimate& estimate);

// The part of a progress text that names the stage ("timing fused" of "timing fused: repeat 3
// of 20 · 4 s elapsed"): throttles let a new stage through at once and hold back its counters
// and time estimates.
std::string_view progressStageKey(std::string_view text);

}  // namespace fusescope
