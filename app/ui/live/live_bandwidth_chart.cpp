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
    allocationAxisName_ = allocationUnitFor(0.0).axisName;
    allocationRect_->axis(QCPAxis::atLeft)->setLabel(allocationAxisName_);
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
            QFontMetricsF(allocated->labelFont()).horizontalAdvance(allocationAxisName_) + 8));
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
        cursor.bandwidthLine = addRectLine(plot_, bandwidthRect_, "cursor");
        cursor.allocationLine = addRectLine(plot_, allocationRect_, "cursor");
        for (QCPItemStraightLine* line : {cursor.bandwidthLine, cursor.allocationLine}) {
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

}  // namespace fusescope::live
