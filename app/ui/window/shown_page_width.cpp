#include "ui/window/shown_page_width.h"

#include <QTabWidget>

namespace fusescope {
namespace {

constexpr char kOwnPolicy[] = "fusescopeOwnHorizontalPolicy";

void followShownPage(QTabWidget* tabs) {
    for (int index = 0; index < tabs->count(); ++index) {
        QWidget* page = tabs->widget(index);
        QSizePolicy policy = page->sizePolicy();
        if (!page->property(kOwnPolicy).isValid())
            page->setProperty(kOwnPolicy, static_cast<int>(policy.horizontalPolicy()));
        const auto own = static_cast<QSizePolicy::Policy>(page->property(kOwnPolicy).toInt());
        policy.setHorizontalPolicy(index == tabs->currentIndex() ? own : QSizePolicy::Ignored);
        if (policy != page->sizePolicy()) page->setSizePolicy(policy);
    }
}

}  // namespace

void widthFollowsShownPage(QTabWidget* tabs) {
    QObject::connect(tabs, &QTabWidget::currentChanged, tabs, [tabs] { followShownPage(tabs); });
    followShownPage(tabs);
}

}  // namespace fusescope
