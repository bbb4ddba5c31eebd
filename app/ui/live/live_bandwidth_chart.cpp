#include "live/live_bandwidth_chart.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QVBoxLayout>
#include <algorithm>

#include "live/live_plot.h"

namespace fusescope::live {
namespace {

constexpr int kDefaultRefreshMs = 33;  // about 30 Hz
const QColor kCursorColors[] = {QColor(148, 103, 189), QColor(23, 190, 207)};
const QColor kReadColor(31, 119, 180);
const QColor kWriteColor(255, 127, 14);
const QColor kAllocationColor(44, 160, 44);
const QColor kRooflineColor(214, 39, 40);

QString gigabytes(double bytes) {
    return QString::number(bytes / 1e9, 'f', 2) + " GB";
}

}  // namespace

LiveBandwidthChart::LiveBandwidthChart(QWidget* parent) : QWidget(parent) {
    qRegisterMetaType<fusescope::live::LiveSample>();
    qRegisterMetaType<QVector<fusescope::live::LiveSample>>();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    plot_ = new QCustomPlot(this);
    layout->addWidget(plot_);
    // Small enough that the memory stage above can take most of the height.
    plot_->setMinimumSize(280, 180);
    plot_->setNoAntialiasingOnDrag(true);

    const QColor text = palette().color(QPalette::WindowText);
    const QColor base = palette().color(QPalette::Base);
    plot_->setBackground(base);

    plot_->plotLayout()->clear();
    bandwidthRect_ = new QCPAxisRect(plot_);
    allocationRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(0, 0, bandwidthRect_);
    plot_->plotLayout()->addElement(1, 0, allocationRect_);
    plot_->plotLayout()->setRowStretchFactors({3.0, 1.2});
    auto* margins = new QCPMarginGroup(plot_);
    bandwidthRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    allocationRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    for (QCPAxisRect* rect : {bandwidthRect_, allocationRect_})
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(text));
            axis->setTickPen(QPen(text));
            axis->setSubTickPen(QPen(text));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
        }
    bandwidthRect_->axis(QCPAxis::atLeft)->setLabel("DRAM GB/s");
    bandwidthRect_->axis(QCPAxis::atBottom)->setTickLabels(false);
    allocationRect_->axis(QCPAxis::atLeft)->setLabel("allocated GB");
    allocationRect_->axis(QCPAxis::atBottom)->setLabel("time (ms)");
    // One time axis: the allocation chart follows the bandwidth chart.
    connect(
        bandwidthRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
        allocationRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));

    plot_->addLayer("spans", plot_->layer("main"), QCustomPlot::limBelow);
    QCPAxis* time = bandwidthRect_->axis(QCPAxis::atBottom);
    QCPAxis* rate = bandwidthRect_->axis(QCPAxis::atLeft);
    read_ = plot_->addGraph(time, rate);
    read_->setName("read");
    // Thin, aliased curves: antialiased ones cost ten times more per replot, which the UI
    // thread cannot afford at 30 Hz with samples streaming in.
    read_->setPen(QPen(kReadColor, 1.0));
    read_->setAntialiased(false);
    write_ = plot_->addGraph(time, rate);
    write_->setName("write");
    write_->setPen(QPen(kWriteColor, 1.0));
    write_->setAntialiased(false);
    inFlight_ = plot_->addGraph(allocationRect_->axis(QCPAxis::atBottom),
                                allocationRect_->axis(QCPAxis::atLeft));
    inFlight_->setName("allocated");
    inFlight_->setLineStyle(QCPGraph::lsStepLeft);
    inFlight_->setPen(QPen(kAllocationColor, 1.5));
    inFlight_->setBrush(
        QColor(kAllocationColor.red(), kAllocationColor.green(), kAllocationColor.blue(), 50));

    auto* legend = new QCPLegend;
    bandwidthRect_->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
    legend->setLayer("legend");
    legend->setTextColor(text);
    legend->setBrush(base);
    read_->addToLegend(legend);
    write_->addToLegend(legend);
    legend->setVisible(true);

    roofline_ = new QCPItemStraightLine(plot_);
    roofline_->setClipAxisRect(bandwidthRect_);
    for (QCPItemPosition* point : {roofline_->point1, roofline_->point2}) {
        point->setAxes(time, rate);
        point->setAxisRect(bandwidthRect_);
    }
    roofline_->setPen(QPen(kRooflineColor, 1.2, Qt::DashLine));
    roofline_->setVisible(false);
    rooflineLabel_ = new QCPItemText(plot_);
    rooflineLabel_->setClipAxisRect(bandwidthRect_);
    rooflineLabel_->position->setAxes(time, rate);
    rooflineLabel_->position->setAxisRect(bandwidthRect_);
    rooflineLabel_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    rooflineLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    rooflineLabel_->setColor(kRooflineColor);
    rooflineLabel_->setBrush(base);
    rooflineLabel_->setPadding(QMargins(4, 1, 4, 1));
    QFont strong = font();
    strong.setBold(true);
    rooflineLabel_->setFont(strong);
    rooflineLabel_->setVisible(false);

    badge_ = new QCPItemText(plot_);
    badge_->setClipToAxisRect(false);
    badge_->position->setAxisRect(bandwidthRect_);
    badge_->position->setType(QCPItemPosition::ptAxisRectRatio);
    badge_->position->setCoords(0.99, 0.02);
    badge_->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    badge_->setColor(text);
    badge_->setPen(QPen(text));
    badge_->setBrush(base);
    badge_->setPadding(QMargins(6, 3, 6, 3));
    QFont badgeFont = strong;
    badgeFont.setPointSizeF(badgeFont.pointSizeF() * 1.15);
    badge_->setFont(badgeFont);
    badge_->setVisible(false);
    badge_->setObjectName(QStringLiteral("badge"));   // the source hover tooltips name
    plot_->setProperty("fusescopeClickSeeks", true);  // the left button seeks, not pans

    peakMarker_ = new QCPItemTracer(plot_);
    peakMarker_->setStyle(QCPItemTracer::tsCircle);
    peakMarker_->setPen(QPen(kRooflineColor));
    peakMarker_->setBrush(kRooflineColor);
    peakMarker_->setSize(7);
    peakMarker_->setVisible(false);
    peakLabel_ = new QCPItemText(plot_);
    peakLabel_->setClipAxisRect(allocationRect_);
    peakLabel_->position->setParentAnchor(peakMarker_->position);
    peakLabel_->position->setCoords(6, -4);
    peakLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    peakLabel_->setColor(text);
    peakLabel_->setVisible(false);

    // Cursors live on a buffered layer of their own: moving one redraws that layer only.
    plot_->addLayer("cursor", plot_->layer("legend"), QCustomPlot::limAbove);
    plot_->layer("cursor")->setMode(QCPLayer::lmBuffered);
    for (int i = 0; i < kCursorCount; ++i) {
        Cursor& cursor = cursors_[i];
        const QPen pen(kCursorColors[i], 2.0);
        cursor.bandwidthLine = new QCPItemStraightLine(plot_);
        cursor.allocationLine = new QCPItemStraightLine(plot_);
        for (auto [line, rect] : {std::pair{cursor.bandwidthLine, bandwidthRect_},
                                  std::pair{cursor.allocationLine, allocationRect_}}) {
            line->setLayer("cursor");
            line->setClipAxisRect(rect);
            for (QCPItemPosition* point : {line->point1, line->point2}) {
                point->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
                point->setAxisRect(rect);
                point->setTypeY(QCPItemPosition::ptAxisRectRatio);
            }
            line->setPen(pen);
            line->setVisible(false);
        }
        cursor.label = new QCPItemText(plot_);
        cursor.label->setLayer("cursor");
        // In the allocation chart's top edge: clear of the badge, the legend and the curves.
        cursor.label->setClipAxisRect(allocationRect_);
        cursor.label->position->setAxes(allocationRect_->axis(QCPAxis::atBottom),
                                        allocationRect_->axis(QCPAxis::atLeft));
        cursor.label->position->setAxisRect(allocationRect_);
        cursor.label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        cursor.label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        cursor.label->setColor(base);
        cursor.label->setBrush(kCursorColors[i]);
        cursor.label->setPadding(QMargins(4, 1, 4, 1));
        cursor.label->setFont(strong);
        cursor.label->setVisible(false);
    }
    cursorNote_ = new QCPItemText(plot_);
    cursorNote_->setLayer("cursor");
    cursorNote_->setClipToAxisRect(false);
    cursorNote_->position->setAxisRect(allocationRect_);
    cursorNote_->position->setType(QCPItemPosition::ptAxisRectRatio);
    cursorNote_->position->setCoords(0.01, 0.97);
    cursorNote_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    cursorNote_->setColor(text);
    cursorNote_->setVisible(false);

    refresh_.setSingleShot(true);
    refresh_.setInterval(kDefaultRefreshMs);
    connect(&refresh_, &QTimer::timeout, this, &LiveBandwidthChart::replotNow);
    cursorFrame_.setSingleShot(true);
    connect(&cursorFrame_, &QTimer::timeout, this, &LiveBandwidthChart::applyCursors);
    connect(plot_, &QCustomPlot::mousePress, this, &LiveBandwidthChart::onMouse);
    connect(plot_, &QCustomPlot::mouseMove, this, &LiveBandwidthChart::onMouse);
}

void LiveBandwidthChart::setCursor(int index, qint64 clockNs, const QString& label) {
    if (index < 0 || index >= kCursorCount) return;
    pendingCursors_[index].visible = true;
    pendingCursors_[index].ns = clockNs;
    pendingCursors_[index].text = label;
    scheduleCursorFrame();
}

// The first move after a quiet frame is drawn on the next turn of the event loop; later ones
// wait for the rest of the frame, so the cursor keeps the stage's pace but never exceeds it.
void LiveBandwidthChart::scheduleCursorFrame() {
    if (cursorFrame_.isActive()) return;
    const qint64 since = lastCursorDraw_.isValid() ? lastCursorDraw_.elapsed() : cursorFrameMs_;
    cursorFrame_.start(static_cast<int>(std::max<qint64>(0, cursorFrameMs_ - since)));
}

void LiveBandwidthChart::hideCursor(int index) {
    if (index < 0 || index >= kCursorCount) return;
    pendingCursors_[index].visible = false;
    scheduleCursorFrame();
}

void LiveBandwidthChart::setCursorNote(const QString& note) {
    cursorNote_->setText(note);
    cursorNote_->setVisible(!note.isEmpty());
    scheduleReplot();
}

QString LiveBandwidthChart::dataSource() const {
    return badge_->visible() ? badge_->text() : QString();
}

QString LiveBandwidthChart::cursorNote() const {
    return cursorNote_->visible() ? cursorNote_->text() : QString();
}

bool LiveBandwidthChart::cursorVisible(int index) const {
    return index >= 0 && index < kCursorCount && cursors_[index].visible;
}

qint64 LiveBandwidthChart::cursorNs(int index) const {
    return index >= 0 && index < kCursorCount ? cursors_[index].ns : 0;
}

// One frame's cursor moves at once: the items move, and only the cursor layer is redrawn
// (unless a full replot is queued anyway, which then draws them).
void LiveBandwidthChart::applyCursors() {
    bool changed = false;
    for (int i = 0; i < kCursorCount; ++i) {
        Cursor& cursor = cursors_[i];
        const Cursor& wanted = pendingCursors_[i];
        if (cursor.visible == wanted.visible && cursor.ns == wanted.ns &&
            cursor.text == wanted.text)
            continue;
        changed = true;
        cursor.visible = wanted.visible;
        cursor.ns = wanted.ns;
        cursor.text = wanted.text;
        const double ms = toMs(cursor.ns);
        for (QCPItemStraightLine* line : {cursor.bandwidthLine, cursor.allocationLine}) {
            line->point1->setCoords(ms, 0.0);
            line->point2->setCoords(ms, 1.0);
            line->setVisible(cursor.visible);
        }
        cursor.label->position->setCoords(ms, 0.0);
        cursor.label->setText(cursor.text);
        cursor.label->setVisible(cursor.visible && !cursor.text.isEmpty());
    }
    if (!changed || refresh_.isActive()) return;
    lastCursorDraw_.start();
    plot_->layer("cursor")->replot();
    ++cursorReplots_;
}

qint64 LiveBandwidthChart::clockNsAtPixel(double x) const {
    const double ms = bandwidthRect_->axis(QCPAxis::atBottom)->pixelToCoord(x);
    return originNs_ + static_cast<qint64>(ms * 1e6);
}

void LiveBandwidthChart::onMouse(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) return;
    const QPoint at = event->position().toPoint();
    if (!bandwidthRect_->rect().contains(at) && !allocationRect_->rect().contains(at)) return;
    emit timeClicked(clockNsAtPixel(at.x()));
}

LiveBandwidthChart::~LiveBandwidthChart() = default;

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
        addToBins(sample);
        lastMs_ = std::max(lastMs_, toMs(sample.endNs));
    }
    samples_ += static_cast<int>(batch.size());
    curvesDirty_ = true;
    scheduleReplot();
}

void LiveBandwidthChart::addToBins(const LiveSample& sample) {
    const qint64 duration = sample.endNs - sample.startNs;
    if (duration <= 0) return;
    if (binNs_ == 0) binNs_ = duration;
    const qint64 middle = std::max<qint64>((sample.startNs + sample.endNs) / 2 - originNs_, 0);
    const qint64 index = middle / binNs_;
    // Samples come in time order; a late one joins the last bin rather than reordering.
    if (bins_.isEmpty() || index > bins_.back().index) bins_.append(Bin{index, 0.0, 0.0, 0});
    Bin& bin = bins_.back();
    const double seconds = static_cast<double>(duration) * 1e-9;
    bin.readBytes += sample.readBytesPerSecond * seconds;
    bin.writeBytes += sample.writeBytesPerSecond * seconds;
    bin.coveredNs += duration;
    if (bins_.size() <= kMaxPoints) return;
    // Too many points: double the bin width and merge neighbours.
    binNs_ *= 2;
    QVector<Bin> merged;
    merged.reserve(bins_.size() / 2 + 1);
    for (const Bin& old : bins_) {
        const qint64 mergedIndex = old.index / 2;
        if (merged.isEmpty() || merged.back().index != mergedIndex)
            merged.append(Bin{mergedIndex, 0.0, 0.0, 0});
        merged.back().readBytes += old.readBytes;
        merged.back().writeBytes += old.writeBytes;
        merged.back().coveredNs += old.coveredNs;
    }
    bins_ = std::move(merged);
}

void LiveBandwidthChart::rebuildBandwidthCurves() {
    QVector<double> keys, reads, writes;
    keys.reserve(bins_.size());
    reads.reserve(bins_.size());
    writes.reserve(bins_.size());
    for (const Bin& bin : bins_) {
        if (bin.coveredNs <= 0) continue;
        const double seconds = static_cast<double>(bin.coveredNs) * 1e-9;
        keys.append((static_cast<double>(bin.index) + 0.5) * static_cast<double>(binNs_) * 1e-6);
        reads.append(bin.readBytes / seconds * 1e-9);
        writes.append(bin.writeBytes / seconds * 1e-9);
        maxGBps_ = std::max({maxGBps_, reads.back(), writes.back()});
    }
    read_->setData(keys, reads, true);
    write_->setData(keys, writes, true);
    curvesDirty_ = false;
}

double LiveBandwidthChart::totalReadBytes() const {
    double total = 0.0;
    for (const Bin& bin : bins_) total += bin.readBytes;
    return total;
}

double LiveBandwidthChart::totalWriteBytes() const {
    double total = 0.0;
    for (const Bin& bin : bins_) total += bin.writeBytes;
    return total;
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
    span->topLeft->setCoords(toMs(startNs), 0.0);
    span->bottomRight->setCoords(toMs(endNs), 1.0);
    const QColor shade = palette().color(QPalette::Highlight);
    span->setPen(QPen(QColor(shade.red(), shade.green(), shade.blue(), 90)));
    span->setBrush(QColor(shade.red(), shade.green(), shade.blue(), 28));
    span->setAntialiased(false);
    auto* label = new QCPItemText(plot_);
    label->setLayer("spans");
    label->setClipAxisRect(bandwidthRect_);
    label->position->setAxes(time, rate);
    label->position->setAxisRect(bandwidthRect_);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords((toMs(startNs) + toMs(endNs)) / 2, 0.98);
    // Rotation turns about the position: left-aligned text then reads upwards from the bottom.
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    label->setRotation(-90);
    label->setText(name);
    label->setColor(palette().color(QPalette::WindowText));
    // Over the curves: an opaque-ish background keeps the name readable in a screenshot.
    QColor behind = palette().color(QPalette::Base);
    behind.setAlpha(200);
    label->setBrush(behind);
    label->setPadding(QMargins(2, 1, 2, 1));
    kernelLabels_.append(label);
    lastMs_ = std::max(lastMs_, toMs(endNs));
    scheduleReplot();
}

void LiveBandwidthChart::addAllocationSpan(const QString& name, quint64 bytes, qint64 startNs,
                                           qint64 endNs) {
    if (!originSet_) setOrigin(startNs);
    allocations_.append({name, bytes, startNs, endNs});
    rebuildAllocationCurve();
    lastMs_ = std::max(lastMs_, toMs(endNs));
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
        keys.append(toMs(time));
        values.append(static_cast<double>(inFlight) * 1e-9);
        if (inFlight > peak) {
            peak = inFlight;
            peakMs = toMs(time);
        }
    }
    inFlight_->setData(keys, values, true);
    peakBytes_ = static_cast<quint64>(peak);
    peakMarker_->setGraph(peak > 0 ? inFlight_ : nullptr);
    peakMarker_->setGraphKey(peakMs);
    peakMarker_->setVisible(peak > 0);
    peakLabel_->setText("peak " + gigabytes(static_cast<double>(peak)));
    peakLabel_->setVisible(peak > 0);
    allocationRect_->axis(QCPAxis::atLeft)->setRange(0.0, std::max(1e-9, peak * 1.3e-9));
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
    scheduleReplot();
}

void LiveBandwidthChart::clear() {
    read_->data()->clear();
    write_->data()->clear();
    bins_.clear();
    binNs_ = 0;
    curvesDirty_ = false;
    allocations_.clear();
    rebuildAllocationCurve();
    for (int i = plot_->itemCount() - 1; i >= 0; --i) {
        QCPAbstractItem* item = plot_->item(i);
        if (item->layer() == plot_->layer("spans")) plot_->removeItem(item);
    }
    kernelLabels_.clear();
    originSet_ = false;
    originNs_ = 0;
    maxGBps_ = 0.0;
    lastMs_ = 0.0;
    samples_ = 0;
    scheduleReplot();
}

// Rotated labels are the costliest thing to draw: show one only where it does not overlap the
// previous shown one (a short run shows them all; a long one, a readable subset).
void LiveBandwidthChart::cullKernelLabels() {
    QCPAxis* time = bandwidthRect_->axis(QCPAxis::atBottom);
    time->setRange(0.0, std::max(lastMs_, 1e-3));
    const double room = QFontMetricsF(font()).height();
    double lastShownPixel = -1e9;
    for (QCPItemText* label : kernelLabels_) {
        const double pixel = time->coordToPixel(label->position->key());
        const bool shown = pixel - lastShownPixel >= room;
        label->setVisible(shown);
        if (shown) lastShownPixel = pixel;
    }
}

void LiveBandwidthChart::scheduleReplot() {
    dirty_ = true;
    if (!refresh_.isActive()) refresh_.start();
}

void LiveBandwidthChart::replotNow() {
    if (!dirty_) return;
    dirty_ = false;
    if (curvesDirty_) rebuildBandwidthCurves();
    cullKernelLabels();
    bandwidthRect_->axis(QCPAxis::atBottom)->setRange(0.0, std::max(lastMs_, 1e-3));
    bandwidthRect_->axis(QCPAxis::atLeft)
        ->setRange(0.0, std::max({maxGBps_, rooflineGBps_, 1.0}) * 1.25);
    QElapsedTimer timer;
    timer.start();
    plot_->replot();
    longestReplotMs_ = std::max(longestReplotMs_, timer.nsecsElapsed() * 1e-6);
    ++replots_;
}

}  // namespace fusescope::live
