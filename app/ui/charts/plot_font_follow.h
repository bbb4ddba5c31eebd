#pragma once
// QCustomPlot takes its fonts once, when each axis, legend and text is made: a later zoom or the
// presentation layout would grow every widget's text but the chart's. This keeps every font of a
// plot in step with the plot's widget font: on each change, all are scaled by the same factor
// (bold titles stay bold and larger), and the plot is drawn again.
#include "ui/charts/plot.h"

namespace fusescope {

// The follower lives as long as the plot (it is the plot's child).
void followWidgetFont(QCustomPlot* plot);

}  // namespace fusescope
