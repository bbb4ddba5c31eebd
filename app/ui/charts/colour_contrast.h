#pragma once
// WCAG 2 contrast of colours, header-only so that the chart libraries below app/ui (the live
// chart) and the theme code share one definition.
#include <QColor>

#include <algorithm>
#include <cmath>

namespace fusescope {

inline double relativeLuminance(const QColor& color) {
    const auto linear = [](double channel) {
        return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) +
           0.0722 * linear(color.blueF());
}

// 1 (same) to 21 (black on white).
inline double contrastRatio(const QColor& first, const QColor& second) {
    const double a = relativeLuminance(first), b = relativeLuminance(second);
    return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}

// `color` where it reads on `background` (4.5:1), else mixed towards white on a dark background
// or black on a light one until it does.
inline QColor readableOn(const QColor& color, const QColor& background) {
    const QColor target =
        relativeLuminance(background) < 0.18 ? QColor(Qt::white) : QColor(Qt::black);
    for (int step = 0; step <= 10; ++step) {
        const double t = step / 10.0;
        const QColor mixed =
            QColor::fromRgbF(static_cast<float>(color.redF() * (1 - t) + target.redF() * t),
                             static_cast<float>(color.greenF() * (1 - t) + target.greenF() * t),
                             static_cast<float>(color.blueF() * (1 - t) + target.blueF() * t));
        if (contrastRatio(mixed, background) >= 4.5) return mixed;
    }
    return target;
}

// Black or white, whichever reads better on `fill`.
inline QColor textOn(const QColor& fill) {
    return contrastRatio(Qt::black, fill) >= contrastRatio(Qt::white, fill) ? QColor(Qt::black)
                                                                            : QColor(Qt::white);
}

}  // namespace fusescope
