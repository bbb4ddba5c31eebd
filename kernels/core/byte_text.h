#pragma once
// Byte counts as people read them, one wording for the engine's sentences and the app's tables:
// decimal units with three significant digits ("28.7 kB", "353 MB", "15.3 GB"), and binary KiB
// where a hardware limit is stated in them (shared memory).
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace fusescope {

// `significant` digits of `bytes` in B, kB, MB, GB, ... (no decimals in B). A reason that
// compares two close counts asks for one digit more.
inline std::string bytesText(double bytes, int significant = 3) {
    static constexpr std::array<const char*, 7> kUnits = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    if (!std::isfinite(bytes)) return "- B";
    const bool negative = bytes < 0.0;
    double value = std::fabs(bytes);
    std::size_t unit = 0;
    // The value shown is rounded: 999.6 kB reads as 1.00 MB, not 1000 kB.
    const double carry = 1000.0 - 0.5 * std::pow(10.0, 3 - significant);
    while (value >= carry && unit + 1 < kUnits.size()) {
        value /= 1000.0;
        ++unit;
    }
    int decimals = 0;
    if (unit > 0) {
        const int integerDigits =
            value < 1.0 ? 1 : static_cast<int>(std::floor(std::log10(value))) + 1;
        decimals = significant > integerDigits ? significant - integerDigits : 0;
        // 9.996 rounds to 10.00: a digit more before the point, one fewer after it.
        if (decimals > 0 && std::round(value * std::pow(10.0, decimals)) >=
                                std::pow(10.0, integerDigits + decimals))
            --decimals;
    }
    // Halves round up, as people round (printf would round 352.5 to the even 352).
    const double scale = std::pow(10.0, decimals);
    value = std::round(value * scale) / scale;
    char text[48];
    std::snprintf(text, sizeof text, "%s%.*f %s", negative ? "-" : "", decimals, value,
                  kUnits[unit]);
    return text;
}

// Binary kibibytes with one decimal ("227.0 KiB"), as the GPU states its shared memory.
inline std::string kibibytesText(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
    return text;
}

}  // namespace fusescope
