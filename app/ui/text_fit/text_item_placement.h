#pragma once
// Text items placed apart from each other and from the data, inside their axis rect.
#include <QList>

#include "ui/charts/plot.h"

namespace fusescope::text_fit {

// How many pixels of room above the data were missing (0 when every item is clear of the data
// and of each other), and the items still on other text or on the data.
struct Placement {
    double lacking = 0.0;
    QList<QCPItemText*> unresolved;
};

// Moves `texts` up (or down where there is no room above) until each is clear, and inside its
// axis rect, on the plot's layout as it is now.
Placement placeTextItems(QCustomPlot* plot, const QList<QCPItemText*>& texts);

}  // namespace fusescope::text_fit
