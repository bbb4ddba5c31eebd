#include "ui/compare/compare_table.h"

#include <QHeaderView>
#include <QTableWidget>

namespace fusescope {

QTableWidget* makeCompareTable(const QString& objectName, QWidget* parent) {
    auto* table = new QTableWidget(parent);
    table->setObjectName(objectName);
    table->verticalHeader()->setVisible(false);
    table->setAlternatingRowColors(true);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(false);
    return table;
}

QTableWidgetItem* compareCell(const QString& text, bool number) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}  // namespace fusescope
