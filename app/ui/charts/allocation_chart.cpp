#include <algorithm>
#include <limits>

#include "live/time_ticker.h"
#include "model/format.h"
#include "ui/charts/charts.h"

namespace fusescope {
namespace {

const QString kPeakLabelLayer = QStringLiteral("peakLabels");

}  // namespace

AllocationChart::AllocationChart(QWidget* parent)
    : ChartView(tr("Allocation in flight over the run"), QStringLiteral("allocation_in_flight"),
                parent) {}

void AllocationChart::rebuild() {
    const model::Recording& shown = recording();
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    std::uint64_t largest = 0;
    for (const model::VariantResult& run : shown.runs)
        for (const fusescope::AllocationEvent& event : run.allocations) {
            origin = std::min(origin, event.timeNs);
            largest = std::max(largest, event.inFlightAfter);
        }
    if (largest == 0) {
        setEmptyMessage(tr("This recording has no allocation records."));
        return;
    }
    const ByteUnit unit = byteUnitFor(static_cast<double>(largest));
    const auto milliseconds = [origin](qint64 ns) { return (ns - origin) / 1e6; };

    QCPGraph* graph = addGraph();
    graph->setName(tr("bytes allocated"));
    graph->setLineStyle(QCPGraph::lsStepLeft);
    graph->setPen(QPen(readColor(), 2));
    QColor fill = readColor();
    fill.setAlpha(60);
    graph->setBrush(fill);
    // Events of all runs, in time order, from zero before the first allocation.
    QVector<const fusescope::AllocationEvent*> events;
    for (const model::VariantResult& run : shown.runs)
        for (const fusescope::AllocationEvent& event : run.allocations) events.push_back(&event);
    std::stable_sort(events.begin(), events.end(),
                     [](const auto* a, const auto* b) { return a->timeNs < b->timeNs; });
    graph->addData(milliseconds(events.front()->timeNs), 0.0);
    for (const fusescope::AllocationEvent* event : events)
        graph->addData(milliseconds(event->timeNs), event->inFlightAfter / unit.divisor);
    const double end = milliseconds(events.back()->timeNs);

    // Each variant's peak, marked; its name and peak written over the middle of its span so
    // labels of neighbouring variants do not collide. The run's overall peak is bold.
    QCPGraph* peaks = addGraph();
    peaks->setName(tr("peak of each variant"));
    peaks->setLineStyle(QCPGraph::lsNone);
    peaks->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, writeColor().darker(120), writeColor(), 9));
    // The labels lie on a layer over everything, the stage's cursor included, on a ground of the
    // chart's own colour: a cursor line passes under a label, never through its text.
    if (!layer(kPeakLabelLayer)) addLayer(kPeakLabelLayer, layer(layerCount() - 1), limAbove);
    QColor labelGround = palette().color(QPalette::Base);
    labelGround.setAlpha(225);
    for (const model::VariantResult& run : shown.runs) {
        const fusescope::AllocationEvent* peak = nullptr;
        std::int64_t first = std::numeric_limits<std::int64_t>::max();
        std::int64_t last = std::numeric_limits<std::int64_t>::min();
        for (const fusescope::AllocationEvent& event : run.allocations) {
            if (!peak || event.inFlightAfter > peak->inFlightAfter) peak = &event;
            first = std::min(first, event.timeNs);
            last = std::max(last, event.timeNs);
        }
        if (!peak) continue;
        const double y = peak->inFlightAfter / unit.divisor;
        peaks->addData(milliseconds(peak->timeNs), y);
        auto* label = new QCPItemText(this);
        label->setLayer(kPeakLabelLayer);
        label->setBrush(labelGround);
        label->setColor(textColor());
        QFont labelFont = font();
        labelFont.setBold(peak->inFlightAfter == largest);
        label->setFont(labelFont);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->position->setCoords((milliseconds(first) + milliseconds(last)) / 2, y);
        label->setPadding(QMargins(2, 0, 2, 4));
        label->setText(
            tr("%1\npeak %2")
                .arg(model::toQString(run.variant), model::formatBytes(peak->inFlightAfter)));
    }
    applyTimeUnit(xAxis, QCPRange(0, end), tr("time since the run began (%1)"));
    yAxis->setLabel(tr("bytes in flight (%1)").arg(unit.name));
    // Room for the standing label and the widest tick label the unit gives ("999.5"), so that
    // retuned ticks never push the label past the widget's edge.
    QMargins least = axisRect()->minimumMargins();
    least.setLeft(
        std::max(least.left(),
                 QFontMetrics(yAxis->tickLabelFont()).horizontalAdvance(QStringLiteral("9999.5")) +
                     QFontMetrics(yAxis->labelFont()).height() + 16));
    axisRect()->setMinimumMargins(least);
    xAxis->setRange(0, std::max(end * 1.05, 1e-3));
    yAxis->setRange(0, largest / unit.divisor * 1.35);
}

}  // namespace fusescope
