#include "ui/window/tab_room.h"

#include <QHash>
#include <QPointer>
#include <QSplitter>
#include <QTabWidget>

namespace fusescope {
namespace {

// One keeper per tab widget holds every page that takes the height and the user's split: kept
// once, across moves from one such page to another, and given back when another page is chosen.
class RoomKeeper : public QObject {
  public:
    static constexpr const char* kName = "fusescopeRoomKeeper";

    RoomKeeper(QTabWidget* tabs, QSplitter* splitter)
        : QObject(tabs), tabs_(tabs), splitter_(splitter) {
        setObjectName(QLatin1String(kName));
        connect(tabs, &QTabWidget::currentChanged, this, &RoomKeeper::follow);
    }

    void add(QWidget* page, bool foldOthersWhenShort) { pages_.insert(page, foldOthersWhenShort); }

  private:
    void follow() {
        if (!splitter_) return;
        const int index = splitter_->indexOf(tabs_);
        QList<int> sizes = splitter_->sizes();
        if (index < 0 || sizes.size() < 2) return;
        const auto page = pages_.constFind(tabs_->currentWidget());
        if (page == pages_.constEnd()) {
            if (userSizes_.size() == sizes.size()) splitter_->setSizes(userSizes_);
            userSizes_.clear();
            return;
        }
        // From a page that takes no height: the split is the user's, to come back later.
        if (userSizes_.isEmpty()) userSizes_ = sizes;
        int total = 0;
        for (int size : sizes) total += size;
        const int others = static_cast<int>(sizes.size()) - 1;
        // On a short screen the others' least heights would leave the page a strip: they fold
        // away (another tab brings them back).
        int othersLeast = 0;
        for (int i = 0; i < splitter_->count(); ++i)
            if (i != index) othersLeast += splitter_->widget(i)->minimumSizeHint().height();
        const bool fold = page.value() && total - othersLeast < total * 2 / 3;
        for (int& size : sizes) size = fold ? 0 : total / 5 / others;
        sizes[index] = fold ? total : total - total / 5;
        splitter_->setSizes(sizes);
    }

    QTabWidget* tabs_;
    QPointer<QSplitter> splitter_;
    QHash<const QWidget*, bool> pages_;  // each page, and whether the others fold when short
    QList<int> userSizes_;
};

}  // namespace

void giveRoomWhileShown(QTabWidget* tabs, QWidget* page, bool foldOthersWhenShort) {
    auto* splitter = qobject_cast<QSplitter*>(tabs->parentWidget());
    if (!splitter || splitter->orientation() != Qt::Vertical) return;
    auto* keeper = static_cast<RoomKeeper*>(
        tabs->findChild<QObject*>(QLatin1String(RoomKeeper::kName), Qt::FindDirectChildrenOnly));
    if (!keeper) keeper = new RoomKeeper(tabs, splitter);
    keeper->add(page, foldOthersWhenShort);
}

}  // namespace fusescope
