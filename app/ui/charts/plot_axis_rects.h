#pragma once
// A colour scale draws its bar and axis in an axis rect of its own that is no element of the
// plot's layout: QCustomPlot::axisRects() leaves it out, and with it the bar's tick labels and
// label. Whatever sizes, fits or checks a plot's axis text walks these rects instead, so that the
// bar's text follows the zoom, the presentation layout and an export like every other axis's.
#include "ui/charts/plot.h"

namespace fusescope {

// Every axis rect of the plot that draws axis text: the layout's, then each colour scale's.
inline QList<QCPAxisRect*> everyAxisRect(const QCustomPlot& plot) {
    QList<QCPAxisRect*> rects = plot.axisRects();
    for (QCPLayoutElement* element : plot.plotLayout()->elements(true))
        if (auto* scale = qobject_cast<QCPColorScale*>(element); scale && scale->axis())
            rects << scale->axis()->axisRect();
    return rects;
}

}  // namespace fusescope
