#include "ui/tab_room.h"

#include <QSplitter>
#include <QTabWidget>
#include <memory>

namespace fusescope {

void giveRoomWhileShown(QTabWidget* tabs, QWidget* page) {
    auto* splitter = qobject_cast<QSplitter*>(tabs->parentWidget());
    if (!splitter || splitter->orientation() != Qt::Vertical) return;
    auto userSizes = std::make_shared<QList<int>>();
    QObject::connect(tabs, &QTabWidget::currentChanged, splitter,
                     [tabs, page, splitter, userSizes](int) {
                         const int index = splitter->indexOf(tabs);
                         QList<int> sizes = splitter->sizes();
                         if (index < 0 || sizes.size() < 2) return;
                         if (tabs->currentWidget() == page) {
                             *userSizes = sizes;
                             int total = 0;
                             for (int size : sizes) total += size;
                             const int others = static_cast<int>(sizes.size()) - 1;
                             for (int& size : sizes) size = total / 5 / others;
                             sizes[index] = total - total / 5;
                             splitter->setSizes(sizes);
                         } else if (userSizes->size() == sizes.size()) {
                             splitter->setSizes(*userSizes);
                             userSizes->clear();
                         }
                     });
}

}  // namespace fusescope
