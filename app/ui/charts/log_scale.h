#pragma once
// When a chart's value axis turns logarithmic: past this spread between the largest and the
// smallest positive value a linear axis flattens the small bars (a CPU against an H200, or the
// lesson's MLP kernel against the five kernels, are often 100x apart); one logarithmic scale
// shows both. Every chart that decides it by itself asks here.
namespace fusescope {

constexpr double kLogScaleSpread = 30.0;

inline bool spreadNeedsLogScale(double smallest, double largest) {
    return smallest > 0 && largest / smallest > kLogScaleSpread;
}

// The user's choice for the value axes of the run charts: by the spread, or always one kind.
enum class ValueScale { Automatic, Linear, Logarithmic };

inline bool useLogScale(ValueScale scale, double smallest, double largest) {
    if (scale == ValueScale::Automatic) return spreadNeedsLogScale(smallest, largest);
    return scale == ValueScale::Logarithmic && smallest > 0 && largest > 0;
}

}  // namespace fusescope
