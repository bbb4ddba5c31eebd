#include "ui/widgets/scroll_column.h"

#include <QEvent>
#include <QPointer>
#include <QStyle>
#include <QTimer>
#include <algorithm>

namespace fusescope {
namespace {

class ScrollColumnFitter : public QObject {
  public:
    ScrollColumnFitter(QScrollArea* column, int widest)
        : QObject(column), column_(column), widest_(widest) {
        column->installEventFilter(this);
        column->viewport()->installEventFilter(this);
        watchWidget();
        fit();
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        switch (event->type()) {
            case QEvent::LayoutRequest:
                // The widget's layout has new size hints (posted, so they are up to date now).
                if (watched == column_->widget()) fitLater();
                break;
            case QEvent::FontChange:
            case QEvent::StyleChange:
                if (watched == column_) fitLater();
                break;
            case QEvent::ChildAdded:
                // setWidget puts the new widget in the viewport.
                if (watched == column_->viewport()) {
                    watchWidget();
                    fitLater();
                }
                break;
            default:
                break;
        }
        return false;
    }

  private:
    void watchWidget() {
        if (QWidget* widget = column_->widget(); widget && widget != watched_) {
            widget->installEventFilter(this);
            watched_ = widget;
        }
    }

    void fitLater() {
        if (pending_) return;
        pending_ = true;
        QTimer::singleShot(0, this, [this] {
            pending_ = false;
            fit();
        });
    }

    void fit() {
        QWidget* widget = column_->widget();
        if (!widget) return;
        const int least = widget->minimumSizeHint().width() +
                          column_->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4;
        column_->setMaximumWidth(std::max(widest_, least));
        column_->setMinimumWidth(least);
    }

    QScrollArea* column_;
    int widest_;
    QPointer<QWidget> watched_;
    bool pending_ = false;
};

}  // namespace

void keepScrollColumnFitted(QScrollArea* column, int widest) {
    if (column) new ScrollColumnFitter(column, widest);
}

}  // namespace fusescope
