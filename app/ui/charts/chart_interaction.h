#pragma once
// Every chart can be looked into: the wheel zooms and a drag pans each axis rect, a double-click
// returns to the ranges the chart chose itself, and hovering a data point shows its exact values,
// its series and where the numbers come from.
//
// The source is the plot's "fusescopeDataSource" property, else the text of a visible text item
// named "badge". A plottable's "fusescopeNotes" property (a QStringList, one entry per data
// point) adds a line to that point's tooltip. A plot whose "fusescopeClickSeeks" property is true
// uses the left button to seek the stage: there it only zooms, and does not pan. A plot that
// rebuilds itself from new data counts its "fusescopeGeneration" up: the ranges a double-click
// returns to are then the new ones.
#include "ui/charts/plot.h"

namespace fusescope {

// The handler lives as long as the plot (it is the plot's child).
void makeChartInteractive(QCustomPlot* plot);

// The tooltip text for the data point nearest `at` (plot pixels) within `reach` pixels, or empty.
QString chartPointTooltip(QCustomPlot* plot, const QPointF& at, double reach = 10.0);

}  // namespace fusescope
