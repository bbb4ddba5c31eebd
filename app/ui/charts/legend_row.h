#pragma once
// A legend in a row of its own under a plot's axes, centred between two stretching cells.
// A layout grid's column is never wider than the smallest maximum of its elements, and a legend's
// maximum is its own width: put straight into the plot's column, the legend would squeeze every
// axis rect of that column to the legend's width.
#include "ui/charts/plot.h"

namespace fusescope {

// Moves `legend` from wherever it is into row `row`, column 0 of the plot's layout.
inline void placeLegendInRow(QCustomPlot* plot, QCPLegend* legend, int row) {
    if (legend->layout()) legend->layout()->take(legend);
    auto* legendRow = new QCPLayoutGrid;
    plot->plotLayout()->addElement(row, 0, legendRow);
    legendRow->setMargins(QMargins(0, 0, 0, 0));
    legendRow->setColumnSpacing(0);
    legendRow->addElement(0, 0, new QCPLayoutElement(plot));
    legendRow->addElement(0, 1, legend);
    legendRow->addElement(0, 2, new QCPLayoutElement(plot));
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
}

}  // namespace fusescope
