#include "ui/window/tab_room.h"

#include <QSplitter>
#include <QTabWidget>
#include <memory>

namespace fusescope {

void giveRoomWhileShown(QTabWidget* tabs, QWidget* page, bool foldOthersWhenShort) {
    auto* splitter = qobject_cast<QSplitter*>(tabs->parentWidget());
    if (!splitter || splitter->orientation() != Qt::Vertical) return;
    auto userSizes = std::make_shared<QList<int>>();
    QObject::connect(tabs, &QTabWidget::currentChanged, splitter,
                     [tabs, page, splitter, userSizes, foldOthersWhenShort](int) {
                         const int index = splitter->indexOf(tabs);
                         QList<int> sizes = splitter->sizes();
                         if (index < 0 || sizes.size() < 2) return;
                         if (tabs->currentWidget() == page) {
                             *userSizes = sizes;
                             int total = 0;
                             for (int size : sizes) total += size;
                             const int others = static_cast<int>(sizes.size()) - 1;
                             // On a short screen the others' least heights would leave the page
                             // a strip: they fold away (another tab brings them back).
                             int othersLeast = 0;
                             for (int i = 0; i < splitter->count(); ++i)
                                 if (i != index)
                                     othersLeast += splitter->widget(i)->minimumSizeHint().height();
                             const bool fold =
                                 foldOthersWhenShort && total - othersLeast < total * 3 / 5;
                             for (int& size : sizes) size = fold ? 0 : total / 5 / others;
                             sizes[index] = fold ? total : total - total / 5;
                             splitter->setSizes(sizes);
                         } else if (userSizes->size() == sizes.size()) {
                             splitter->setSizes(*userSizes);
                             userSizes->clear();
                         }
                     });
}

}  // namespace fusescope
