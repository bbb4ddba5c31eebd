#pragma once
// Axes whose text fits: labels elided to their axis, as many numeric ticks as their labels have
// room for, text tick names standing on end or thinned where they would run into each other.
#include "ui/charts/plot.h"

namespace fusescope::text_fit {

// One axis fitted to its rect as it is laid out now. `standNames`: text tick names stand on end
// whether or not they would fit lying down.
void fitAxis(QCPAxis* axis, bool standNames = false);

// Every axis of the plot fitted again and again until the layout keeps still: what it leaves is
// what is drawn.
void settleAxes(QCustomPlot* plot);

}  // namespace fusescope::text_fit
