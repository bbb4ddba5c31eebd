#include "ui/text_fit/legend_fit.h"

#include <algorithm>

namespace fusescope::text_fit {

FittedLegendItem::FittedLegendItem(QCPLegend* legend, QCPAbstractPlottable* plottable)
    : QCPPlottableLegendItem(legend, plottable) {}

QString FittedLegendItem::shownName() const {
    const QString full = mPlottable ? mPlottable->name() : QString();
    if (textRoom_ < 0) return full;
    return QFontMetricsF(getFont()).elidedText(full, Qt::ElideRight, textRoom_);
}

bool FittedLegendItem::elided() const {
    return mPlottable && shownName() != mPlottable->name();
}

// Drawn and measured by the plain entry, with the plottable named by the shown name for that
// while (the entry reads the name from the plottable).
void FittedLegendItem::draw(QCPPainter* painter) {
    if (!mPlottable) return;
    const ShownName shown(mPlottable, shownName());
    QCPPlottableLegendItem::draw(painter);
}

QSize FittedLegendItem::minimumOuterSizeHint() const {
    if (!mPlottable) return {};
    const ShownName shown(mPlottable, shownName());
    return QCPPlottableLegendItem::minimumOuterSizeHint();
}

FittedLegendItem::ShownName::ShownName(QCPAbstractPlottable* plottable, const QString& shown)
    : plottable_(plottable), full_(plottable->name()) {
    plottable_->setName(shown);
}

FittedLegendItem::ShownName::~ShownName() {
    plottable_->setName(full_);
}

void fitLegend(QCPLegend* legend, double width) {
    if (legend->itemCount() == 0 || legend->fillOrder() != QCPLegend::foColumnsFirst) return;
    // Names longer than the plot is wide are elided: each entry in place of the plain one.
    const int textRoom = static_cast<int>(width) - legend->margins().left() -
                         legend->margins().right() - legend->iconSize().width() -
                         legend->iconTextPadding();
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = legend->item(i);
        if (!item) continue;
        auto* fitted = dynamic_cast<FittedLegendItem*>(item);
        if (!fitted && item->metaObject() == &QCPPlottableLegendItem::staticMetaObject) {
            int row = 0;
            int column = 0;
            legend->indexToRowCol(i, row, column);
            QCPAbstractPlottable* plottable =
                static_cast<QCPPlottableLegendItem*>(item)->plottable();
            fitted = new FittedLegendItem(legend, plottable);
            fitted->setLayer(item->layer());
            fitted->setFont(item->font());
            fitted->setTextColor(item->textColor());
            fitted->setSelectable(item->selectable());
            legend->take(item);
            delete item;
            legend->addElement(row, column, fitted);
        }
        if (fitted)
            fitted->setTextRoom(
                std::max(textRoom - fitted->margins().left() - fitted->margins().right(), 0));
    }
    // Columns of the widest item: a grid that never runs past the plot's sides.
    int widest = 1;
    int items = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        // A wrapped legend's grid has empty cells: item() is null there.
        if (QCPAbstractLegendItem* item = legend->item(i)) {
            widest = std::max(widest, item->minimumOuterSizeHint().width());
            ++items;
        }
    const int spacing = legend->columnSpacing();
    const int columns =
        std::clamp(static_cast<int>((width + spacing) / (widest + spacing)), 1, std::max(items, 1));
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    }
}

}  // namespace fusescope::text_fit
