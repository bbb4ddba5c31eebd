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

inline const QString kAllocatedAxisName = QStringLiteral("allocated GB");

inline QString gigabytes(double bytes) {
    return QString::number(bytes / 1e9, 'f', 2) + " GB";
}

}  // namespace fusescope::live::chart_style
