#include "ui/chart_least_height.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

#include "ui/plot.h"

namespace fusescope {

void keepLeastPlotHeight(QCustomPlot* chart) {
    // The least height the chart was given is the floor.
    const int floor = chart->minimumHeight();
    QObject::connect(chart, &QCustomPlot::afterLayout, chart, [chart, floor] {
        const QCPAxisRect* plot = chart->axisRect();
        // An empty chart (a message, no axes) needs no room for data.
        if (!plot || !chart->xAxis->visible() || chart->height() <= 0) return;
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
