#include "ui/widgets/wrapped_check_list.h"

#include <QEvent>
#include <QTimer>

namespace fusescope {

WrappedCheckList::WrappedCheckList(QWidget* parent) : QListWidget(parent) {
    setWordWrap(true);
    setTextElideMode(Qt::ElideNone);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The height follows the items, so a scroll bar would only take width from them.
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setResizeMode(QListView::Adjust);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    auto* items = model();
    connect(items, &QAbstractItemModel::rowsInserted, this, &WrappedCheckList::fitHeightLater);
    connect(items, &QAbstractItemModel::rowsRemoved, this, &WrappedCheckList::fitHeightLater);
    connect(items, &QAbstractItemModel::modelReset, this, &WrappedCheckList::fitHeightLater);
    connect(items, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex&, const QModelIndex&, const QList<int>& roles) {
                // A tick does not change an item's height; a new title or font may.
                if (roles != QList<int>{Qt::CheckStateRole}) fitHeightLater();
            });
    fitHeight();
}

WrappedCheckList::~WrappedCheckList() {
    // The list's model outlives this part of it and resets as ~QListWidget clears it: its
    // signals must not reach a WrappedCheckList that is no longer one.
    model()->disconnect(this);
}

void WrappedCheckList::resizeEvent(QResizeEvent* event) {
    QListWidget::resizeEvent(event);
    fitHeightLater();
}

void WrappedCheckList::changeEvent(QEvent* event) {
    QListWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fitHeightLater();
}

void WrappedCheckList::fitHeightLater() {
    if (fitPending_) return;
    fitPending_ = true;
    QTimer::singleShot(0, this, [this] {
        fitPending_ = false;
        fitHeight();
    });
}

void WrappedCheckList::fitHeight() {
    doItemsLayout();
    int items = 0;
    for (int row = 0; row < count(); ++row)
        items = std::max(items, visualItemRect(item(row)).bottom() + 1 + verticalOffset());
    // An empty list keeps one line's height, so that the panel does not jump when it fills.
    if (count() == 0) items = fontMetrics().height() + 4;
    const int height = items + 2 * frameWidth();
    if (height != this->height() || minimumHeight() != height) setFixedHeight(height);
}

}  // namespace fusescope
