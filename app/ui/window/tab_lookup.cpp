#include "ui/window/tab_lookup.h"

#include <QTabWidget>

namespace fusescope {
namespace {

template <typename Matches>
TabMatch firstTab(const QList<QTabWidget*>& tabWidgets, Matches matches) {
    for (QTabWidget* tabs : tabWidgets)
        for (int index = 0; index < tabs->count(); ++index)
            if (matches(tabs->tabText(index).remove(QLatin1Char('&'))))
                return TabMatch{tabs, index};
    return TabMatch{};
}

}  // namespace

TabMatch findTabNamed(const QList<QTabWidget*>& tabWidgets, const QString& name) {
    const TabMatch exact = firstTab(tabWidgets, [&name](const QString& title) {
        return title.compare(name, Qt::CaseInsensitive) == 0;
    });
    if (exact.tabs) return exact;
    return firstTab(tabWidgets, [&name](const QString& title) {
        return title.contains(name, Qt::CaseInsensitive);
    });
}

}  // namespace fusescope
