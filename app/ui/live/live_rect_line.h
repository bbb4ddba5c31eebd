#pragma once
// A vertical line item of the bandwidth-over-time chart: placed by its x on `rect`'s bottom axis,
// spanning the rect's height, clipped to it and drawn on `layer`. The cursors and the cuts
// between busy spans are such lines.
#include "live/live_plot.h"

namespace fusescope::live {

inline QCPItemStraightLine* addRectLine(QCustomPlot* plot, QCPAxisRect* rect, const char* layer) {
    auto* line = new QCPItemStraightLine(plot);
    line->setLayer(layer);
    line->setClipAxisRect(rect);
    for (QCPItemPosition* point : {line->point1, line->point2}) {
        point->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        point->setAxisRect(rect);
        point->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    return line;
}

}  // namespace fusescope::live
