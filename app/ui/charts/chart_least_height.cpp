#include "ui/charts/chart_least_height.h"

#include <QEvent>
#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

#include "ui/charts/plot.h"

namespace fusescope {

namespace {

// A hidden chart (another tab in front) asks for no more than its floor: a tab widget's least
// height is that of its tallest page, shown or not.
class FloorWhileHidden : public QObject {
  public:
    FloorWhileHidden(QWidget* chart, int floor) : QObject(chart), floor_(floor) {
        chart->installEventFilter(this);
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Hide)
            if (auto* chart = qobject_cast<QWidget*>(watched)) chart->setMinimumHeight(floor_);
        return QObject::eventFilter(watched, event);
    }

  private:
    int floor_;
};

}  // namespace

void keepLeastPlotHeight(QCustomPlot* chart) {
    // The least height the chart was given is the floor.
    const int floor = chart->minimumHeight();
    new FloorWhileHidden(chart, floor);
    QObject::connect(chart, &QCustomPlot::afterLayout, chart, [chart, floor] {
        const QCPAxisRect* plot = chart->axisRect();
        // An empty chart (a message, no axes) needs no room for data.
        // A hidden chart (a replot queued behind another tab) keeps its floor.
        if (!plot || !chart->isVisible() || !chart->xAxis->visible() || chart->height() <= 0)
            return;
        // What the plot's surroundings take at this width (they do not grow with the height).
        const int around = chart->height() - plot->rect().height();
        // The value axis's title whole beside the plot (fitting text shortens it otherwise).
        const QCPAxis* values = chart->yAxis;
        QString title = values->property("fusescopeFullText").toString();
        if (title.isEmpty()) title = values->label();
        const double titleLength = QFontMetricsF(values->labelFont()).horizontalAdvance(title) + 12;
        const double plotLeast =
            std::max(kLeastPlotLines * QFontMetricsF(chart->font()).height(), titleLength);
        // Never more than 3/5 of the window: the views beside the chart keep their tab bars.
        const int least = std::clamp(static_cast<int>(std::ceil(around + plotLeast)), floor,
                                     std::max(floor, chart->window()->height() * 3 / 5));
        // Small changes are left alone: a layout that moves by a pixel must not start another.
        if (std::abs(least - chart->minimumHeight()) > 2) chart->setMinimumHeight(least);
    });
}

}  // namespace fusescope
