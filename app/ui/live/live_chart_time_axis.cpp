// The time axis: clock times to axis times, idle time cut out between kernels, zoom to a kernel.
#include "live/live_bandwidth_chart.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QMouseEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "live/kernel_rates.h"
#include "live/live_chart_style.h"
#include "live/live_plot.h"
#include "live/live_rect_line.h"
#include "live/time_ticker.h"
#include "ui/charts/axis_colours.h"
#include "ui/charts/colour_contrast.h"
#include "ui/export/export_text.h"

namespace fusescope::live {

using namespace chart_style;

qint64 LiveBandwidthChart::clockNsAtPixel(double x) const {
    return clockNsAtAxisMs(bandwidthRect_->axis(QCPAxis::atBottom)->pixelToCoord(x));
}

double LiveBandwidthChart::axisMsAt(qint64 clockNs) const {
    if (!kernelsOnly_ || busy_.isEmpty()) return toMs(clockNs);
    // The last stretch that starts by then; idle time after it ends where the stretch ends.
    const auto after = std::upper_bound(
        busy_.cbegin(), busy_.cend(), clockNs,
        [](qint64 ns, const BusyStretch& stretch) { return ns < stretch.startNs; });
    if (after == busy_.cbegin()) return 0.0;
    const BusyStretch& stretch = *std::prev(after);
    return stretch.axisMs +
           static_cast<double>(std::min(clockNs, stretch.endNs) - stretch.startNs) * 1e-6;
}

qint64 LiveBandwidthChart::clockNsAtAxisMs(double ms) const {
    if (!kernelsOnly_ || busy_.isEmpty()) return originNs_ + static_cast<qint64>(ms * 1e6);
    const auto after =
        std::upper_bound(busy_.cbegin(), busy_.cend(), ms,
                         [](double at, const BusyStretch& stretch) { return at < stretch.axisMs; });
    const BusyStretch& stretch = after == busy_.cbegin() ? busy_.front() : *std::prev(after);
    return stretch.startNs + static_cast<qint64>((ms - stretch.axisMs) * 1e6);
}

bool LiveBandwidthChart::idleBetweenKernels(qint64 startNs, qint64 endNs) const {
    if (!kernelsOnly_) return false;
    // Stretches do not overlap, so their ends are in order too.
    const auto first =
        std::upper_bound(busy_.cbegin(), busy_.cend(), startNs,
                         [](qint64 ns, const BusyStretch& stretch) { return ns < stretch.endNs; });
    return first == busy_.cend() || first->startNs >= endNs;
}

void LiveBandwidthChart::setKernelsOnly(bool kernelsOnly) {
    if (kernelsOnlyBox_->isChecked() != kernelsOnly) kernelsOnlyBox_->setChecked(kernelsOnly);
    if (kernelsOnly_ == kernelsOnly) return;
    kernelsOnly_ = kernelsOnly;
    rebuildTimeMap();
    // The whole run on the new axis; a double-click returns here, not to the old axis's ranges.
    ownTimeRange_ = {};
    plot_->setProperty("fusescopeGeneration", plot_->property("fusescopeGeneration").toInt() + 1);
    applyTimeUnits(allocationRect_->axis(QCPAxis::atBottom)->range());
    replotNow();
}

void LiveBandwidthChart::applyTimeUnits(const QCPRange& range) {
    applyTimeUnit(allocationRect_->axis(QCPAxis::atBottom), range,
                  kernelsOnly_ && !busy_.isEmpty() ? tr("kernel time (%1), idle time cut out")
                                                   : tr("time (%1)"));
}

void LiveBandwidthChart::rebuildTimeMap() {
    busy_.clear();
    if (kernelsOnly_) {
        QVector<QPair<qint64, qint64>> spans;
        for (const KernelMark& kernel : kernels_) spans.append({kernel.startNs, kernel.endNs});
        std::sort(spans.begin(), spans.end());
        for (const auto& [start, end] : spans) {
            if (!busy_.isEmpty() && start <= busy_.back().endNs)
                busy_.back().endNs = std::max(busy_.back().endNs, end);
            else
                busy_.append({start, end, 0.0});
        }
        double at = 0.0;
        for (BusyStretch& stretch : busy_) {
            stretch.axisMs = at;
            at += static_cast<double>(stretch.endNs - stretch.startNs) * 1e-6;
        }
    }
    for (KernelMark& kernel : kernels_) {
        kernel.startMs = axisMsAt(kernel.startNs);
        kernel.endMs = axisMsAt(kernel.endNs);
        kernel.span->topLeft->setCoords(kernel.startMs, 0.0);
        kernel.span->bottomRight->setCoords(kernel.endMs, 1.0);
    }
    for (QCPItemStraightLine* line : breaks_) plot_->removeItem(line);
    breaks_.clear();
    const QColor text = palette().color(QPalette::WindowText);
    // Light enough that many cuts (a run of short kernels) do not hide the curves.
    QPen pen(QColor(text.red(), text.green(), text.blue(), 120), 1.0);
    pen.setDashPattern({4.0, 3.0});
    for (int i = 1; i < busy_.size(); ++i)
        for (QCPAxisRect* rect : {bandwidthRect_, allocationRect_}) {
            QCPItemStraightLine* line = addRectLine(plot_, rect, "spans");
            line->point1->setCoords(busy_[i].axisMs, 0.0);
            line->point2->setCoords(busy_[i].axisMs, 1.0);
            line->setPen(pen);
            line->setSelectable(false);
            breaks_.append(line);
        }
    rebuildAllocationCurve();
    curvesDirty_ = true;
    cursorsStale_ = true;
    scheduleCursorFrame();
    scheduleReplot();
}

int LiveBandwidthChart::breakMarkerCount() const {
    int count = 0;
    for (const QCPItemStraightLine* line : breaks_)
        count += line->visible() && line->clipAxisRect() == bandwidthRect_ ? 1 : 0;
    return count;
}

void LiveBandwidthChart::onMouse(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) return;
    const QPoint at = event->position().toPoint();
    // A kernel's name zooms to that kernel; the charts themselves seek.
    if (kernelLane_->rect().contains(at)) {
        if (event->type() == QEvent::MouseButtonPress) zoomToKernel(kernelLabelAt(at));
        return;
    }
    if (!bandwidthRect_->rect().contains(at) && !allocationRect_->rect().contains(at)) return;
    emit timeClicked(clockNsAtPixel(at.x()));
}

int LiveBandwidthChart::kernelLabelAt(const QPointF& at) const {
    for (int i = 0; i < kernels_.size(); ++i) {
        const QCPItemText* label = kernels_[i].label;
        if (!label->visible()) continue;
        const QRectF box =
            QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                .normalized();
        if (box.contains(at)) return i;
    }
    return -1;
}

void LiveBandwidthChart::zoomToKernel(int index) {
    if (index < 0 || index >= kernels_.size()) return;
    const KernelMark& kernel = kernels_[index];
    const double room = std::max((kernel.endMs - kernel.startMs) * 0.15, 1e-4);
    // A zoom of the user's: the samples that arrive later no longer move the axis.
    bandwidthRect_->axis(QCPAxis::atBottom)->setRange(kernel.startMs - room, kernel.endMs + room);
    scheduleReplot();
}

bool LiveBandwidthChart::followsSamples() const {
    const QCPRange now = bandwidthRect_->axis(QCPAxis::atBottom)->range();
    return ownTimeRange_ == MsRange{} || ownTimeRange_ == MsRange{now.lower, now.upper};
}

void LiveBandwidthChart::setTimeRange(double lowerMs, double upperMs) {
    ownTimeRange_ = {lowerMs, upperMs};
    bandwidthRect_->axis(QCPAxis::atBottom)->setRange(lowerMs, upperMs);
}

int LiveBandwidthChart::shownKernelLabels() const {
    int shown = 0;
    for (const KernelMark& kernel : kernels_) shown += kernel.label->visible() ? 1 : 0;
    return shown;
}

LiveBandwidthChart::~LiveBandwidthChart() = default;

}  // namespace fusescope::live
