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
#include "live/live_plot.h"
#include "live/time_ticker.h"
#include "ui/axis_colours.h"
#include "ui/colour_contrast.h"
#include "ui/export_text.h"

namespace fusescope::live {
namespace {

constexpr int kDefaultRefreshMs = 33;  // about 30 Hz
const QColor kCursorColors[] = {QColor(148, 103, 189), QColor(23, 190, 207)};
const QColor kReadColor(31, 119, 180);
const QColor kWriteColor(255, 127, 14);
const QColor kAllocationColor(44, 160, 44);
const QColor kRooflineColor(214, 39, 40);

const QString kAllocatedAxisName = QStringLiteral("allocated GB");

QString gigabytes(double bytes) {
    return QString::number(bytes / 1e9, 'f', 2) + " GB";
}

}  // namespace

LiveBandwidthChart::LiveBandwidthChart(QWidget* parent) : QWidget(parent) {
    qRegisterMetaType<fusescope::live::LiveSample>();
    qRegisterMetaType<QVector<fusescope::live::LiveSample>>();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* viewRow = new QHBoxLayout;
    viewRow->setContentsMargins(0, 0, 0, 0);
    kernelsOnlyBox_ = new QCheckBox(tr("Kernels only"), this);
    kernelsOnlyBox_->setObjectName(QStringLiteral("kernelsOnly"));
    kernelsOnlyBox_->setToolTip(
        tr("Cut the idle time between kernels out of the time axis (a dashed line marks each "
           "cut). Click a kernel's name to zoom to it; double-click the chart to see all again."));
    // At the left: in sight when a window too small for its views scrolls sideways. Enabled
    // once there are kernels to keep.
    kernelsOnlyBox_->setEnabled(false);
    viewRow->addWidget(kernelsOnlyBox_);
    viewRow->addStretch(1);
    layout->addLayout(viewRow);
    connect(kernelsOnlyBox_, &QCheckBox::toggled, this, &LiveBandwidthChart::setKernelsOnly);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("bandwidth_over_time"));
    // Offered by File > Export, the context menu and --export-charts.
    plot_->setProperty("fusescopeExportTitle", tr("Bandwidth over time"));
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
    // Rows: the badge, the legend, the bandwidth, the kernels' lane, the allocations. The lane
    // sits in a grid of its own, so that axisRect(0) and axisRect(1) stay the two charts.
    QFont strong = font();
    strong.setBold(true);
    QFont titleFont = strong;
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    title_ = new QCPTextElement(plot_, tr("DRAM bandwidth over time"), titleFont);
    title_->setTextColor(text);
    badge_ = new QCPTextElement(plot_, QString(), font());
    badge_->setTextColor(text);
    badge_->setVisible(false);
    // Grids join the plot before their elements do: an element learns its plot from the grid
    // it is added to (a legend without one takes no plottables).
    auto* legendRow = new QCPLayoutGrid;
    auto* laneRow = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(0, 0, title_);
    plot_->plotLayout()->addElement(1, 0, badge_);
    plot_->plotLayout()->addElement(2, 0, legendRow);
    plot_->plotLayout()->addElement(3, 0, bandwidthRect_);
    plot_->plotLayout()->addElement(4, 0, laneRow);
    plot_->plotLayout()->addElement(5, 0, allocationRect_);
    auto* legend = new QCPLegend;
    legend_ = legend;
    legendRow->setMargins(QMargins(0, 0, 0, 0));
    legendRow->addElement(0, 0, new QCPLayoutElement(plot_));
    legendRow->addElement(0, 1, legend);
    legendRow->addElement(0, 2, new QCPLayoutElement(plot_));
    kernelLane_ = new QCPAxisRect(plot_);
    laneRow->setMargins(QMargins(0, 0, 0, 0));
    laneRow->addElement(0, 0, kernelLane_);
    plot_->plotLayout()->setRowSpacing(2);
    plot_->plotLayout()->setRowStretchFactors({0.001, 0.001, 0.001, 3.0, 0.001, 1.2});
    auto* margins = new QCPMarginGroup(plot_);
    for (QCPAxisRect* rect : {bandwidthRect_, kernelLane_, allocationRect_})
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    for (QCPAxis* axis : kernelLane_->axes()) axis->setVisible(false);
    kernelLane_->setAutoMargins(QCP::msLeft | QCP::msRight);
    kernelLane_->setMargins(QMargins(0, 0, 0, 0));
    kernelLane_->axis(QCPAxis::atLeft)->setRange(0.0, 1.0);
    for (QCPAxisRect* rect : {bandwidthRect_, allocationRect_}) colourAxes(*rect, text);
    bandwidthRect_->axis(QCPAxis::atLeft)->setLabel("DRAM GB/s");
    bandwidthRect_->axis(QCPAxis::atBottom)->setTickLabels(false);
    allocationRect_->axis(QCPAxis::atLeft)->setLabel(kAllocatedAxisName);
    // Milliseconds or seconds as the range asks, and "kernel time" while idle time is cut out.
    QCPAxis* shownTime = allocationRect_->axis(QCPAxis::atBottom);
    applyTimeUnits(shownTime->range());
    connect(shownTime, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &LiveBandwidthChart::applyTimeUnits);
    // One time axis: a zoom or pan of any of the three moves the others (setRange returns at
    // once when nothing changes, so the links do not loop).
    QCPAxis* times[] = {bandwidthRect_->axis(QCPAxis::atBottom),
                        kernelLane_->axis(QCPAxis::atBottom),
                        allocationRect_->axis(QCPAxis::atBottom)};
    for (QCPAxis* from : times)
        for (QCPAxis* to : times)
            if (from != to)
                connect(from, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), to,
                        qOverload<const QCPRange&>(&QCPAxis::setRange));
    // The names are placed for the layout as it is drawn; the curves are binned for the range
    // about to be drawn, whoever replots (a zoom replots at once).
    connect(plot_, &QCustomPlot::afterLayout, this, &LiveBandwidthChart::placeKernelLabels);
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] {
        // The allocations' axis name whole where the plot has the height for it (large text on
        // a projector): their rect at least as tall as the name is long, up to a fifth.
        QCPAxis* allocated = allocationRect_->axis(QCPAxis::atLeft);
        const int nameLength = static_cast<int>(std::ceil(
            QFontMetricsF(allocated->labelFont()).horizontalAdvance(kAllocatedAxisName) + 8));
        allocationRect_->setMinimumSize(0, std::min(nameLength, plot_->height() / 5));
        const QCPRange now = bandwidthRect_->axis(QCPAxis::atBottom)->range();
        if (curvesDirty_ || !(binnedRange_ == MsRange{now.lower, now.upper}))
            rebuildBandwidthCurves();
    });

    plot_->addLayer("spans", plot_->layer("main"), QCustomPlot::limBelow);
    QCPAxis* time = bandwidthRect_->axis(QCPAxis::atBottom);
    QCPAxis* rate = bandwidthRect_->axis(QCPAxis::atLeft);
    // Each series is an envelope: a line through the most rate of each bin, and a bar down to
    // the least (error bars: a channel fill between two curves costs ten times more to draw).
    const auto envelope = [&](const QString& name, const QColor& color, QCPGraph*& high,
                              QCPErrorBars*& band) {
        // Thin, aliased curves: antialiased ones cost ten times more per replot, which the UI
        // thread cannot afford at 30 Hz with samples streaming in.
        high = plot_->addGraph(time, rate);
        high->setName(name);
        high->setPen(QPen(color, 1.0));
        high->setAntialiased(false);
        band = new QCPErrorBars(time, rate);
        band->setName(name + tr(" (least to most in each bin)"));
        band->removeFromLegend();
        band->setErrorType(QCPErrorBars::etValueError);
        band->setWhiskerWidth(0);
        band->setPen(QPen(QColor(color.red(), color.green(), color.blue(), 110), 1.0));
        band->setAntialiased(false);
        band->setDataPlottable(high);
    };
    envelope(QStringLiteral("read"), kReadColor, read_, readBand_);
    envelope(QStringLiteral("write"), kWriteColor, write_, writeBand_);
    inFlight_ = plot_->addGraph(allocationRect_->axis(QCPAxis::atBottom),
                                allocationRect_->axis(QCPAxis::atLeft));
    inFlight_->setName("allocated");
    inFlight_->setLineStyle(QCPGraph::lsStepLeft);
    inFlight_->setPen(QPen(kAllocationColor, 1.5));
    inFlight_->setBrush(
        QColor(kAllocationColor.red(), kAllocationColor.green(), kAllocationColor.blue(), 50));

    legend->setLayer("legend");
    legend->setTextColor(text);
    legend->setBrush(Qt::NoBrush);  // off the data: nothing to cover
    legend->setBorderPen(Qt::NoPen);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    read_->addToLegend(legend);
    write_->addToLegend(legend);
    // Drawn after the legend's own background, on its layer.
    for (int i = 0; i < legend->itemCount(); ++i) legend->item(i)->setLayer(legend->layer());
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
    rooflineLabel_->setFont(strong);
    rooflineLabel_->setVisible(false);

    plot_->setProperty("fusescopeClickSeeks", true);  // the left button seeks, not pans

    peakMarker_ = new QCPItemTracer(plot_);
    peakMarker_->setStyle(QCPItemTracer::tsCircle);
    peakMarker_->setPen(QPen(kRooflineColor));
    peakMarker_->setBrush(kRooflineColor);
    peakMarker_->setSize(7);
    peakMarker_->setVisible(false);
    peakLabel_ = new QCPItemText(plot_);
    peakLabel_->setFont(plot_->font());
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
            markScreenOnly(line);  // the stage's position: nothing to follow on a slide
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
        markScreenOnly(cursor.label);
    }
    cursorNote_ = new QCPItemText(plot_);
    cursorNote_->setFont(plot_->font());
    cursorNote_->setLayer("cursor");
    cursorNote_->setClipToAxisRect(false);
    cursorNote_->position->setAxisRect(allocationRect_);
    cursorNote_->position->setType(QCPItemPosition::ptAxisRectRatio);
    cursorNote_->position->setCoords(0.01, 0.97);
    cursorNote_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    cursorNote_->setColor(text);
    cursorNote_->setVisible(false);
    markScreenOnly(cursorNote_);

    refresh_.setSingleShot(true);
    refresh_.setInterval(kDefaultRefreshMs);
    connect(&refresh_, &QTimer::timeout, this, &LiveBandwidthChart::replotNow);
    cursorFrame_.setSingleShot(true);
    connect(&cursorFrame_, &QTimer::timeout, this, &LiveBandwidthChart::applyCursors);
    connect(plot_, &QCustomPlot::mousePress, this, &LiveBandwidthChart::onMouse);
    connect(plot_, &QCustomPlot::mouseMove, this, &LiveBandwidthChart::onMouse);
    applyPalette();
}

void LiveBandwidthChart::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        scheduleReplot();
    }
}

// Every text and background from the palette of now: a theme chosen after the chart was made
// reaches the names of kernels made before it as well as those made after.
void LiveBandwidthChart::applyPalette() {
    const QColor text = palette().color(QPalette::WindowText);
    const QColor base = palette().color(QPalette::Base);
    plot_->setBackground(base);
    title_->setTextColor(text);
    badge_->setTextColor(text);
    legend_->setTextColor(text);
    for (QCPAxisRect* rect : {bandwidthRect_, allocationRect_}) {
        rect->setBackground(base);
        colourAxes(*rect, text);
    }
    rooflineLabel_->setBrush(base);
    rooflineLabel_->setColor(readableOn(kRooflineColor, base));
    peakLabel_->setColor(text);
    cursorNote_->setColor(text);
    for (int i = 0; i < kCursorCount; ++i) cursors_[i].label->setColor(textOn(kCursorColors[i]));
    const QColor shade = palette().color(QPalette::Highlight);
    for (KernelMark& kernel : kernels_) {
        kernel.label->setColor(text);
        kernel.span->setPen(QPen(QColor(shade.red(), shade.green(), shade.blue(), 90)));
        kernel.span->setBrush(QColor(shade.red(), shade.green(), shade.blue(), 28));
    }
    QPen cut(QColor(text.red(), text.green(), text.blue(), 120), 1.0);
    cut.setDashPattern({4.0, 3.0});
    for (QCPItemStraightLine* line : breaks_) line->setPen(cut);
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
    return badge_->visible() ? plot_->property("fusescopeDataSource").toString() : QString();
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
        if (!cursorsStale_ && cursor.visible == wanted.visible && cursor.ns == wanted.ns &&
            cursor.text == wanted.text)
            continue;
        changed = true;
        cursor.visible = wanted.visible;
        cursor.ns = wanted.ns;
        cursor.text = wanted.text;
        const double ms = axisMsAt(cursor.ns);
        for (QCPItemStraightLine* line : {cursor.bandwidthLine, cursor.allocationLine}) {
            line->point1->setCoords(ms, 0.0);
            line->point2->setCoords(ms, 1.0);
            line->setVisible(cursor.visible);
        }
        cursor.label->position->setCoords(ms, 0.0);
        cursor.label->setText(cursor.text);
        cursor.label->setVisible(cursor.visible && !cursor.text.isEmpty());
    }
    cursorsStale_ = false;
    if (!changed || refresh_.isActive()) return;
    lastCursorDraw_.start();
    plot_->layer("cursor")->replot();
    ++cursorReplots_;
}

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
            auto* line = new QCPItemStraightLine(plot_);
            line->setLayer("spans");
            line->setClipAxisRect(rect);
            for (QCPItemPosition* point : {line->point1, line->point2}) {
                point->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
                point->setAxisRect(rect);
                point->setTypeY(QCPItemPosition::ptAxisRectRatio);
            }
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
        values.append(static_cast<double>(inFlight) * 1e-9);
        if (inFlight > peak) {
            peak = inFlight;
            peakMs = axisMsAt(time);
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
