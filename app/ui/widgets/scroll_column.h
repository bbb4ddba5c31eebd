#pragma once
// A column of controls that scrolls up and down, never sideways: kept as wide as its widget's
// least width plus the vertical scroll bar, at least, and `widest` at most unless the least width
// is more. It follows what moves that width: a font or style change (the zoom, the presentation
// layout, the theme), controls shown, hidden or refilled, and a widget put in the column later.
#include <QScrollArea>

namespace fusescope {

void keepScrollColumnFitted(QScrollArea* column, int widest = QWIDGETSIZE_MAX);

}  // namespace fusescope
