#pragma once
// What the memory stage's layout and its drawing share: its symbolic counts, fonts in pixels,
// the header's two lines, colour mixing and the bytes it counts.
#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <iterator>

#include "model/stage/stage_timeline.h"

namespace fusescope::stage_drawing {

constexpr int kTilesPerArray = 32;  // the largest array's row; smaller arrays get fewer
constexpr int kSmBoxes = 8;         // a symbolic handful of SMs, not the device's count
constexpr int kCellColumns = 4;
constexpr int kCellRows = 3;
constexpr int kPacketsPerFlow = 5;
constexpr double kPacketTripsPerSweep = 14.0;

inline QFont pixelFont(double px, bool bold) {
    QFont font;
    font.setPixelSize(std::max(8, static_cast<int>(std::lround(px))));
    font.setBold(bold);
    return font;
}

inline QRectF titleLine(const auto& pane) {
    return QRectF(pane.header.left(), pane.header.top(), pane.header.width(),
                  pane.header.height() * (pane.statusShown ? 0.52 : 1.0));
}
inline QRectF statusLine(const auto& pane) {
    return QRectF(pane.header.left(), pane.header.top() + pane.header.height() * 0.52,
                  pane.header.width(), pane.statusShown ? pane.header.height() * 0.48 : 0.0);
}

// The first text that fits the width, or the last one.
inline const QString& firstFitting(
    const QFontMetricsF& metrics, double width,
    std::initializer_list<std::reference_wrapper<const QString>> texts) {
    for (const QString& text : texts)
        if (metrics.horizontalAdvance(text) <= width) return text;
    return std::data(texts)[texts.size() - 1];
}

// `from` moved towards `to` by `amount` (0..1).
inline QColor blend(const QColor& from, const QColor& to, double amount) {
    const auto mix = [amount](double a, double b) { return a + (b - a) * amount; };
    return QColor::fromRgbF(static_cast<float>(mix(from.redF(), to.redF())),
                            static_cast<float>(mix(from.greenF(), to.greenF())),
                            static_cast<float>(mix(from.blueF(), to.blueF())));
}

inline QColor withAlpha(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

// What the bytes box counts: DRAM bytes where known, else the requests.
inline double bytesCounted(const model::StageTimeline& timeline) {
    return timeline.dramSource != model::DramSource::Unknown
               ? timeline.dramBytes
               : double(timeline.modelBytesRead + timeline.modelBytesWritten);
}

}  // namespace fusescope::stage_drawing
