// What the chart draws from the samples and kernels it is fed: curves, spans, labels, roofline.
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
#include "live/time_ticker.h"
#include "model/format.h"
#include "ui/charts/axis_colours.h"
#include "ui/charts/colour_contrast.h"
#include "ui/export/export_text.h"

namespace fusescope::live {

using namespace chart_style;

double LiveBandwidthChart::toMs(qint64 ns) const {
    return static_cast<double>(ns - originNs_) * 1e-6;
}

void LiveBandwidthChart::setOrigin(qint64 originNs) {
    originNs_ = originNs;
    originSet_ = true;
}

void LiveBandwidthChart::appendSamples(const QVector<LiveSample>& batch) {
    if (batch.isEmpty()) return;
    if (!originSet_) setOrigin(batch.front().startNs);
    for (const LiveSample& sample : batch) {
        if (sample.endNs <= sample.startNs) continue;
        const double seconds = static_cast<double>(sample.endNs - sample.startNs) * 1e-9;
        totalReadBytes_ += sample.readBytesPerSecond * seconds;
        totalWriteBytes_ += sample.writeBytesPerSecond * seconds;
        maxGBps_ = std::max(
            {maxGBps_, sample.readBytesPerSecond * 1e-9, sample.writeBytesPerSecond * 1e-9});
        // Samples come in time order; a late one is put in its place.
        if (!samplesInOrder_.isEmpty() && sample.startNs < samplesInOrder_.back().startNs)
            samplesInOrder_.insert(
                std::upper_bound(
                    samplesInOrder_.begin(), samplesInOrder_.end(), sample,
                    [](const LiveSample& a, const LiveSample& b) { return a.startNs < b.startNs; }),
                sample);
        else
            samplesInOrder_.append(sample);
        lastNs_ = anyTime_ ? std::max(lastNs_, sample.endNs) : sample.endNs;
        anyTime_ = true;
    }
    samples_ += static_cast<int>(batch.size());
    curvesDirty_ = true;
    scheduleReplot();
}

// The samples in view, in at most kMaxPoints bins across it: each bin keeps the least and the
// most rate of the samples that touch it. No averaging: a 0.7 ms kernel streaming at 4.3 TB/s
// peaks at 4.3 TB/s whether the axis spans a millisecond or a minute.
void LiveBandwidthChart::rebuildBandwidthCurves() {
    const QCPRange range = bandwidthRect_->axis(QCPAxis::atBottom)->range();
    binnedRange_ = {range.lower, range.upper};
    curvesDirty_ = false;
    const int pixels = std::max(16, bandwidthRect_->width());
    const int binCount = std::clamp(pixels / 2, 16, kMaxPoints);
    const double binMs = range.size() / binCount;
    struct Envelope {
        double readLow = 0.0, readHigh = 0.0, writeLow = 0.0, writeHigh = 0.0;
        bool any = false;
    };
    QVector<Envelope> bins(binCount);
    const qint64 firstNs = clockNsAtAxisMs(range.lower);
    const qint64 lastNs = clockNsAtAxisMs(range.upper);
    // Samples are short: the first that can reach the view starts a little before it.
    auto it =
        std::lower_bound(samplesInOrder_.cbegin(), samplesInOrder_.cend(), firstNs,
                         [](const LiveSample& sample, qint64 ns) { return sample.endNs < ns; });
    // lower_bound needs ends in order too; a long sample breaks that, so step back over any.
    while (it != samplesInOrder_.cbegin() && std::prev(it)->endNs >= firstNs) --it;
    for (; it != samplesInOrder_.cend() && it->startNs <= lastNs; ++it) {
        if (it->endNs < firstNs || binMs <= 0) continue;
        // Kernels only: the idle samples between kernels are cut out with their time.
        if (idleBetweenKernels(it->startNs, it->endNs)) continue;
        const int first = std::clamp(
            static_cast<int>((axisMsAt(it->startNs) - range.lower) / binMs), 0, binCount - 1);
        const int last = std::clamp(static_cast<int>((axisMsAt(it->endNs) - range.lower) / binMs),
                                    0, binCount - 1);
        const double read = it->readBytesPerSecond * 1e-9;
        const double written = it->writeBytesPerSecond * 1e-9;
        for (int index = first; index <= last; ++index) {
            Envelope& bin = bins[index];
            if (!bin.any) {
                bin = {read, read, written, written, true};
                continue;
            }
            bin.readLow = std::min(bin.readLow, read);
            bin.readHigh = std::max(bin.readHigh, read);
            bin.writeLow = std::min(bin.writeLow, written);
            bin.writeHigh = std::max(bin.writeHigh, written);
        }
    }
    QVector<double> keys, readLow, readHigh, writeLow, writeHigh;
    for (int index = 0; index < binCount; ++index) {
        const Envelope& bin = bins[index];
        if (!bin.any) continue;
        keys.append(range.lower + (index + 0.5) * binMs);
        readLow.append(bin.readLow);
        readHigh.append(bin.readHigh);
        writeLow.append(bin.writeLow);
        writeHigh.append(bin.writeHigh);
    }
    read_->setData(keys, readHigh, true);
    write_->setData(keys, writeHigh, true);
    // Down from the most to the least: the bar's length below the line.
    for (int index = 0; index < readHigh.size(); ++index) {
        readLow[index] = readHigh[index] - readLow[index];
        writeLow[index] = writeHigh[index] - writeLow[index];
    }
    readBand_->setData(readLow, QVector<double>(readLow.size(), 0.0));
    writeBand_->setData(writeLow, QVector<double>(writeLow.size(), 0.0));
}

double LiveBandwidthChart::totalReadBytes() const {
    return totalReadBytes_;
}

double LiveBandwidthChart::totalWriteBytes() const {
    return totalWriteBytes_;
}

void LiveBandwidthChart::addKernelSpan(const QString& name, qint64 startNs, qint64 endNs) {
    if (!originSet_) setOrigin(startNs);
    QCPAxis* time = bandwidthRect_->axis(QCPAxis::atBottom);
    QCPAxis* rate = bandwidthRect_->axis(QCPAxis::atLeft);
    auto* span = new QCPItemRect(plot_);
    span->setLayer("spans");
    span->setClipAxisRect(bandwidthRect_);
    for (QCPItemPosition* corner : {span->topLeft, span->bottomRight}) {
        corner->setAxes(time, rate);
        corner->setAxisRect(bandwidthRect_);
        corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    span->topLeft->setCoords(axisMsAt(startNs), 0.0);
    span->bottomRight->setCoords(axisMsAt(endNs), 1.0);
    const QColor shade = palette().color(QPalette::Highlight);
    span->setPen(QPen(QColor(shade.red(), shade.green(), shade.blue(), 90)));
    span->setBrush(QColor(shade.red(), shade.green(), shade.blue(), 28));
    span->setAntialiased(false);
    // The name, in the lane under the curves: placed (or left out) at each layout.
    auto* label = new QCPItemText(plot_);
    label->setLayer("spans");
    label->setClipAxisRect(kernelLane_);
    label->position->setAxes(kernelLane_->axis(QCPAxis::atBottom),
                             kernelLane_->axis(QCPAxis::atLeft));
    label->position->setAxisRect(kernelLane_);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setText(name);
    // The widget's font, which the lane's rows are measured in (a new item takes the
    // application's).
    label->setFont(font());
    label->setColor(palette().color(QPalette::WindowText));
    label->setPadding(QMargins(2, 1, 2, 1));
    label->setVisible(false);
    KernelMark mark{name, startNs, endNs, axisMsAt(startNs), axisMsAt(endNs), span, label};
    kernels_.insert(std::upper_bound(kernels_.begin(), kernels_.end(), mark,
                                     [](const KernelMark& a, const KernelMark& b) {
                                         return a.startNs < b.startNs;
                                     }),
                    mark);
    lastNs_ = anyTime_ ? std::max(lastNs_, endNs) : endNs;
    anyTime_ = true;
    kernelsOnlyBox_->setEnabled(true);
    // A new kernel joins or splits the busy stretches: the kernels-only axis is laid out again.
    if (kernelsOnly_) rebuildTimeMap();
    scheduleReplot();
}

void LiveBandwidthChart::addAllocationSpan(const QString& name, quint64 bytes, qint64 startNs,
                                           qint64 endNs) {
    if (!originSet_) setOrigin(startNs);
    allocations_.append({name, bytes, startNs, endNs});
    rebuildAllocationCurve();
    lastNs_ = anyTime_ ? std::max(lastNs_, endNs) : endNs;
    anyTime_ = true;
    scheduleReplot();
}

void LiveBandwidthChart::rebuildAllocationCurve() {
    // Steps: +bytes at each allocation, -bytes at each free (a free first at equal times).
    QVector<QPair<qint64, qint64>> steps;
    for (const LiveAllocationSpan& span : allocations_) {
        steps.append({span.startNs, static_cast<qint64>(span.bytes)});
        steps.append({span.endNs, -static_cast<qint64>(span.bytes)});
    }
    std::sort(steps.begin(), steps.end());
    QVector<double> keys, values;
    qint64 inFlight = 0;
    qint64 peak = 0;
    double peakMs = 0.0;
    for (const auto& [time, delta] : steps) {
        inFlight += delta;
        keys.append(axisMsAt(time));
        values.append(static_cast<double>(inFlight));
        if (inFlight > peak) {
            peak = inFlight;
            peakMs = axisMsAt(time);
        }
    }
    // The axis in the unit of the peak: a small run's 28.7 kB is not "0.00 GB".
    const AllocationUnit unit = allocationUnitFor(static_cast<double>(peak));
    for (double& value : values) value /= unit.bytes;
    inFlight_->setData(keys, values, true);
    peakBytes_ = static_cast<quint64>(peak);
    peakMarker_->setGraph(peak > 0 ? inFlight_ : nullptr);
    peakMarker_->setGraphKey(peakMs);
    peakMarker_->setVisible(peak > 0);
    peakLabel_->setText("peak " + model::formatBytes(static_cast<quint64>(peak)));
    peakLabel_->setVisible(peak > 0);
    QCPAxis* allocated = allocationRect_->axis(QCPAxis::atLeft);
    allocationAxisName_ = unit.axisName;
    allocated->setLabel(allocationAxisName_);
    allocated->setRange(0.0, std::max(1.0, 1.3 * static_cast<double>(peak) / unit.bytes));
}

void LiveBandwidthChart::setRoofline(double gigabytesPerSecond) {
    rooflineGBps_ = gigabytesPerSecond;
    const bool shown = gigabytesPerSecond > 0;
    roofline_->point1->setCoords(0.0, gigabytesPerSecond);
    roofline_->point2->setCoords(1.0, gigabytesPerSecond);
    rooflineLabel_->position->setCoords(0.99, gigabytesPerSecond);
    rooflineLabel_->setText("copy roofline " + QString::number(gigabytesPerSecond, 'f', 0) +
                            " GB/s");
    roofline_->setVisible(shown);
    rooflineLabel_->setVisible(shown);
    scheduleReplot();
}

void LiveBandwidthChart::setDataSource(const QString& badge) {
    badge_->setText(badge);
    badge_->setVisible(!badge.isEmpty());
    // What hover tooltips name as the numbers' source.
    plot_->setProperty("fusescopeDataSource", badge);
    scheduleReplot();
}

void LiveBandwidthChart::clear() {
    for (QCPGraph* graph : {read_, write_}) graph->data()->clear();
    for (QCPErrorBars* band : {readBand_, writeBand_}) band->data()->clear();
    samplesInOrder_.clear();
    totalReadBytes_ = 0.0;
    totalWriteBytes_ = 0.0;
    curvesDirty_ = false;
    allocations_.clear();
    rebuildAllocationCurve();
    for (int i = plot_->itemCount() - 1; i >= 0; --i) {
        QCPAbstractItem* item = plot_->item(i);
        if (item->layer() == plot_->layer("spans")) plot_->removeItem(item);
    }
    kernels_.clear();
    // The cursors stood on the runs cleared: the stage shows them again on what comes next.
    for (Cursor& cursor : pendingCursors_) cursor.visible = false;
    scheduleCursorFrame();
    kernelsOnlyBox_->setEnabled(false);
    breaks_.clear();  // on the spans' layer: removed above
    busy_.clear();
    originSet_ = false;
    originNs_ = 0;
    maxGBps_ = 0.0;
    lastNs_ = 0;
    anyTime_ = false;
    samples_ = 0;
    ownTimeRange_ = {};
    scheduleReplot();
}

// The names in their lane, in start order: each centred under its kernel where it can be, in the
// first of a few rows where it clears the names before it, or left out (a zoom shows it). The
// lane grows to the rows it uses.
void LiveBandwidthChart::placeKernelLabels() {
    constexpr int kMostRows = 3;
    constexpr double kGap = 8.0;
    const int lineHeight = static_cast<int>(std::ceil(QFontMetricsF(font()).height())) + 4;
    // Rows for names, but never more than a sixth of the curves' height (a short chart keeps
    // one row; the names left out show when zoomed in).
    const int rowsAllowed =
        std::clamp(bandwidthRect_->rect().height() / (6 * lineHeight), 1, kMostRows);
    QCPAxis* time = kernelLane_->axis(QCPAxis::atBottom);
    const QRect area = kernelLane_->rect();
    double rowEnds[kMostRows];
    std::fill(std::begin(rowEnds), std::end(rowEnds), -1e12);
    int rowsUsed = 1;
    QVector<QPair<QCPItemText*, QPair<double, int>>> placed;  // label, its left and row
    for (const KernelMark& kernel : kernels_) {
        QCPItemText* label = kernel.label;
        const QFontMetricsF metrics(label->font());
        const double width = metrics.horizontalAdvance(label->text()) + 4.0 + 2.0;
        const double from = time->coordToPixel(kernel.startMs);
        const double to = time->coordToPixel(kernel.endMs);
        label->setVisible(false);
        if (to < area.left() || from > area.right() || width > area.width()) continue;
        const double centre =
            (std::max(from, double(area.left())) + std::min(to, double(area.right()))) / 2;
        const double left =
            std::clamp(centre - width / 2, double(area.left()), double(area.right()) - width);
        for (int row = 0; row < rowsAllowed; ++row)
            if (left >= rowEnds[row] + kGap) {
                rowEnds[row] = left + width;
                rowsUsed = std::max(rowsUsed, row + 1);
                placed.append({label, {left, row}});
                break;
            }
    }
    const int laneHeight = rowsUsed * lineHeight + 2;
    if (laneRows_ != rowsUsed || kernelLane_->minimumSize().height() != laneHeight) {
        laneRows_ = rowsUsed;
        kernelLane_->setMinimumSize(0, laneHeight);
        kernelLane_->setMaximumSize(QWIDGETSIZE_MAX, laneHeight);
        plot_->plotLayout()->update(QCPLayoutElement::upLayout);
    }
    const double laneWidth = std::max(1, kernelLane_->rect().width());
    for (const auto& [label, where] : placed) {
        // In the lane's own coordinates, so a later margin change keeps it under its kernel.
        label->position->setCoords(time->pixelToCoord(where.first),
                                   (where.second * lineHeight + 1.0) / laneHeight);
        label->setVisible(laneWidth > 0);
    }
}

void LiveBandwidthChart::scheduleReplot() {
    dirty_ = true;
    if (!refresh_.isActive()) refresh_.start();
}

void LiveBandwidthChart::replotNow() {
    if (!dirty_) return;
    dirty_ = false;
    // The axis follows the samples until a zoom or pan of the user's (or a click on a name).
    if (followsSamples()) setTimeRange(0.0, std::max(anyTime_ ? axisMsAt(lastNs_) : 0.0, 1e-3));
    // Nothing to draw (a CPU run, a run without counters): the title and the badge say why,
    // with no empty axes under them.
    const bool any = samples_ > 0 || !kernels_.isEmpty() || !allocations_.isEmpty();
    for (QCPAxisRect* rect : {bandwidthRect_, allocationRect_})
        for (QCPAxis* axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
            axis->setVisible(any);
            axis->grid()->setVisible(any);
        }
    // No allocations: the time axis stays, the empty bytes axis (1e-9 ticks) does not.
    QCPAxis* allocated = allocationRect_->axis(QCPAxis::atLeft);
    allocated->setVisible(any && !allocations_.isEmpty());
    allocated->grid()->setVisible(any && !allocations_.isEmpty());
    legend_->setVisible(any);
    applyRateAxis();
    QElapsedTimer timer;
    timer.start();
    plot_->replot();
    longestReplotMs_ = std::max(longestReplotMs_, timer.nsecsElapsed() * 1e-6);
    ++replots_;
}

void LiveBandwidthChart::setValueScale(ValueScale scale) {
    if (scale == valueScale_) return;
    valueScale_ = scale;
    scheduleReplot();
}

bool LiveBandwidthChart::rateAxisLogarithmic() const {
    return bandwidthRect_->axis(QCPAxis::atLeft)->scaleType() == QCPAxis::stLogarithmic;
}

// Linear from zero, or logarithmic from a tenth of the slowest kernel's median rate: the idle
// samples between kernels then lie below the axis, and each kernel's plateau shows.
void LiveBandwidthChart::applyRateAxis() {
    QCPAxis* rate = bandwidthRect_->axis(QCPAxis::atLeft);
    const double top = std::max({maxGBps_, rooflineGBps_, 1.0});
    QVector<LiveKernelSpan> spans;
    spans.reserve(kernels_.size());
    for (const KernelMark& kernel : kernels_)
        spans.append({kernel.name, kernel.startNs, kernel.endNs});
    const KernelRateSpread spread = kernelRateSpread(samplesInOrder_, spans);
    const double slowest = spread.smallest > 0 ? spread.smallest * 1e-9 : top / 1000;
    // By itself, the kernels' spread decides (no kernel sampled: linear); when asked, log.
    const bool logarithmic = valueScale_ == ValueScale::Automatic
                                 ? spreadNeedsLogScale(spread.smallest, spread.largest)
                                 : useLogScale(valueScale_, slowest, top);
    // The axis title stays short enough to show whole on a short chart; the title says the scale.
    title_->setText(logarithmic ? tr("DRAM bandwidth over time · log scale")
                                : tr("DRAM bandwidth over time"));
    if (!logarithmic) {
        if (rate->scaleType() != QCPAxis::stLinear) {
            rate->setScaleType(QCPAxis::stLinear);
            rate->setTicker(QSharedPointer<QCPAxisTicker>::create());
        }
        rate->setRange(0.0, top * 1.25);
        return;
    }
    if (rate->scaleType() != QCPAxis::stLogarithmic) {
        rate->setScaleType(QCPAxis::stLogarithmic);
        rate->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    }
    rate->setRange(slowest / 10, top * 2);
}

}  // namespace fusescope::live
