#include "ui/widgets/combo_box_measure.h"

#include <QComboBox>
#include <QEvent>

namespace fusescope {
namespace {

constexpr char kWatcherName[] = "fusescopeComboBoxMeasure";

class ComboBoxMeasure : public QObject {
  public:
    explicit ComboBoxMeasure(QCoreApplication* application) : QObject(application) {
        setObjectName(QLatin1String(kWatcherName));
        application->installEventFilter(this);
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::FontChange) return false;
        auto* combo = qobject_cast<QComboBox*>(watched);
        if (!combo) return false;
        // A style change is the one event on which QComboBox forgets both its size hints; the
        // font is already the new one when its change is announced.
        QEvent remeasure(QEvent::StyleChange);
        QCoreApplication::sendEvent(combo, &remeasure);
        return false;
    }
};

}  // namespace

void remeasureComboBoxesOnFontChange(QCoreApplication* application) {
    if (!application ||
        application->findChild<QObject*>(QLatin1String(kWatcherName), Qt::FindDirectChildrenOnly))
        return;
    new ComboBoxMeasure(application);
}

}  // namespace fusescope
