#pragma once
// A tab named in words (--show-tab): the tab whose title is the name wins over the first whose
// title merely contains it, so "Lab" is the Lab even where "Expression lab" comes first.
#include <QList>
#include <QString>

class QTabWidget;

namespace fusescope {

struct TabMatch {
    QTabWidget* tabs = nullptr;  // none found: null
    int index = -1;
};

// Titles are compared without their mnemonic '&' and without regard to case.
TabMatch findTabNamed(const QList<QTabWidget*>& tabWidgets, const QString& name);

}  // namespace fusescope
