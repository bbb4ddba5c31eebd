#pragma once
// What a table widget shows, read back the way a user reads it.
#include <QStringList>
#include <QTableWidget>

namespace testsupport {

// One column's texts from the top row down; an empty cell reads as "".
inline QStringList columnTexts(const QTableWidget& table, int column) {
    QStringList texts;
    for (int row = 0; row < table.rowCount(); ++row)
        texts << (table.item(row, column) ? table.item(row, column)->text() : QString());
    return texts;
}

}  // namespace testsupport
