#pragma once
// The read-only ratio tables of the compare window, for runs and for size sweeps alike: one look,
// columns as wide as their contents, numbers right-aligned.
#include <QString>

class QTableWidget;
class QTableWidgetItem;
class QWidget;

namespace fusescope {

// An empty table named `objectName`: no row numbers, alternating rows, columns sized to fit.
QTableWidget* makeCompareTable(const QString& objectName, QWidget* parent);

// A cell to read and select, not edit; a number is right-aligned.
QTableWidgetItem* compareCell(const QString& text, bool number = true);

}  // namespace fusescope
