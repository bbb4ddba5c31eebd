#pragma once
// The cell of the results tables that show measurements: text to read and select, not edit.
#include <QString>
#include <QTableWidgetItem>

namespace fusescope {

inline QTableWidgetItem* readOnlyCell(const QString& text, Qt::Alignment alignment) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

}  // namespace fusescope
