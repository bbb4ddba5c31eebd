#pragma once
// Every axis of a plot's rect in one colour, the theme's text: base line, ticks, tick labels and
// the label. Header-only, so that the chart libraries below app/ui share it.
#include <qcustomplot.h>

namespace fusescope {

inline void colourAxes(QCPAxisRect& rect, const QColor& text) {
    for (QCPAxis* axis : rect.axes()) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
    }
}

}  // namespace fusescope
