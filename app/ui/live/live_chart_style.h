#pragma once
// What the parts of the bandwidth-over-time chart share: its colours, its refresh pace and the
// allocation axis's name.
#include <QColor>
#include <QString>

namespace fusescope::live::chart_style {

inline constexpr int kDefaultRefreshMs = 33;  // about 30 Hz
inline const QColor kCursorColors[] = {QColor(148, 103, 189), QColor(23, 190, 207)};
inline const QColor kReadColor(31, 119, 180);
inline const QColor kWriteColor(255, 127, 14);
inline const QColor kAllocationColor(44, 160, 44);
inline const QColor kRooflineColor(214, 39, 40);

// The allocation axis counts in the unit of the run's peak (GB, MB, kB or B).
struct AllocationUnit {
    double bytes;      // bytes in one unit
    QString axisName;  // "GB allocated": the unit first stays in sight when the name is elided
};

inline AllocationUnit allocationUnitFor(double peakBytes) {
    if (peakBytes >= 1e9) return {1e9, QStringLiteral("GB allocated")};
    if (peakBytes >= 1e6) return {1e6, QStringLiteral("MB allocated")};
    if (peakBytes >= 1e3) return {1e3, QStringLiteral("kB allocated")};
    return {1.0, QStringLiteral("B allocated")};
}

}  // namespace fusescope::live::chart_style
