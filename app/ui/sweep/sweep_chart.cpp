#include "ui/sweep/sweep_chart.h"

#include <QEvent>
#include <QStringList>
#include <algorithm>
#include <array>
#include <cmath>

#include "model/format.h"
#include "ui/charts/legend_row.h"
#include "ui/charts/log_scale.h"
#include "ui/export/export_save.h"

namespace fusescope {
namespace {

constexpr int kFitCurvePoints = 160;

// Sizes from this one up are written with a binary suffix; smaller ones read best in full
// ("4096" tokens, not "4K").
constexpr double kFirstSuffixedSize = 65536.0;

struct SizeSuffix {
    double size;
    const char* suffix;
    const char* meaning;
};
constexpr std::array<SizeSuffix, 3> kSizeSuffixes{{{1024.0 * 1024.0 * 1024.0, "G", "2^30"},
                                                   {1024.0 * 1024.0, "M", "2^20"},
                                                   {1024.0, "K", "2^10"}}};

// N on a log axis at powers of 4, labelled the way CUDA people say sizes: 4096, 64K, 1M, 256M.
class ElementCountTicker final : public QCPAxisTickerLog {
  protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        if (tick >= kFirstSuffixedSize)
            for (const SizeSuffix& unit : kSizeSuffixes)
                if (tick >= unit.size)
                    return QString::number(tick / unit.size, 'g', 4) + unit.suffix;
        return QString::number(tick, 'g', 6);
    }
};

// "K = 2^10, M = 2^20" for the suffixes the ticks up to `xHigh` use; empty when they use none.
QString suffixesMeaning(double xHigh) {
    QStringList used;
    if (xHigh >= kFirstSuffixedSize)
        for (const SizeSuffix& unit : kSizeSuffixes)
            if (xHigh >= unit.size)
                used.prepend(QStringLiteral("%1 = %2").arg(QLatin1String(unit.suffix),
                                                           QLatin1String(unit.meaning)));
    return used.join(QStringLiteral(", "));
}

// The second cue beside the colour (colour-blind viewers, grey print): each variant has its own
// marker shape, in the same order as the colours.
QCPScatterStyle::ScatterShape variantMarker(int index) {
    static const std::array<QCPScatterStyle::ScatterShape, 8> kShapes{
        QCPScatterStyle::ssCircle,  QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross,  QCPScatterStyle::ssTriangleInverted,
        QCPScatterStyle::ssPlus,    QCPScatterStyle::ssStar};
    return kShapes[static_cast<std::size_t>(index) % kShapes.size()];
}

// x in plot coordinates, y as a fraction of the axis rect's height (0 top, 1 bottom).
void placeInRect(QCPItemPosition* position, QCPAxisRect* rect, double x, double yRatio) {
    position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    position->setAxisRect(rect);
    position->setTypeX(QCPItemPosition::ptPlotCoords);
    position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    position->setCoords(x, yRatio);
}

void placeAtRatio(QCPItemPosition* position, QCPAxisRect* rect, double xRatio, double yRatio) {
    position->setAxisRect(rect);
    position->setType(QCPItemPosition::ptAxisRectRatio);
    position->setCoords(xRatio, yRatio);
}

// Compared sweeps: the first recording solid with filled markers, the second dashed with hollow
// ones (told apart in grey print too); one sweep alone is drawn solid and filled.
Qt::PenStyle recordingLine(int recording) {
    return recording == 0 ? Qt::SolidLine : Qt::DashLine;
}

QCPScatterStyle variantDots(int variant, int recording, const QColor& color) {
    const double size = 8;
    return recording == 0
               ? QCPScatterStyle(variantMarker(variant), color, color, size)
               : QCPScatterStyle(variantMarker(variant), QPen(color, 1.5), Qt::NoBrush, size);
}

// The digits of the logarithmic value axes: the time axis, and the bandwidth axis of compared
// sweeps that spread wide.
constexpr int kValueDigits = 6;

QString formatN(double n) {
    return model::formatCount(static_cast<quint64>(std::llround(n)));
}

// Cache sizes are powers of two: "60 MiB" reads as the data sheet says, "62.9 MB" does not.
QString formatCacheBytes(double bytes) {
    constexpr double kMiB = 1024.0 * 1024.0;
    if (bytes >= kMiB) return QStringLiteral("%1 MiB").arg(bytes / kMiB, 0, 'g', 4);
    return QStringLiteral("%1 KiB").arg(bytes / 1024.0, 0, 'g', 4);
}

// `size`: the swept dimension's name ("N", "M").
QString fitLine(const SweepChartSeries& series, const QString& size) {
    const QString launches = series.launches == 1 ? QObject::tr("1 launch")
                                                  : QObject::tr("%1 launches").arg(series.launches);
    const QString head = QStringLiteral("%1 (%2): ").arg(series.name, launches);
    if (!series.fit) return head + QObject::tr("no fit: %1").arg(series.fitError);
    const SweepChartFit& fit = *series.fit;
    QString overhead = fit.overheadClamped
                           ? QObject::tr("overhead ~0 (fit clamped)")
                           : QObject::tr("%1 µs per launch").arg(fit.overheadUs, 0, 'f', 2);
    QString line =
        head + overhead + QObject::tr(", %1 GB/s").arg(model::formatGBps(fit.bandwidthGBps));
    if (fit.boundaryN > 0)
        line += QObject::tr(", regimes meet at %1 ≈ %2").arg(size, formatN(fit.boundaryN));
    if (fit.samplesSetAside > 0)
        line += QObject::tr(" (%1 of the sizes set aside)").arg(fit.samplesSetAside);
    return line;
}

}  // namespace

SweepChart::SweepChart(QWidget* parent) : DataChart(parent) {
    setObjectName(QStringLiteral("sweep_chart"));
    // Two axis rects with their labels stay readable down to this; smaller screens scroll.
    setMinimumSize(300, 260);

    timeRect_ = axisRect();
    bandwidthRect_ = new QCPAxisRect(this);

    // Where the numbers come from: a row of its own, so that it never covers a title or data.
    badgeElement_ = new QCPTextElement(this, QString(), font());
    badgeElement_->setTextFlags(Qt::AlignRight | Qt::AlignVCenter);
    badgeElement_->setObjectName(QStringLiteral("badge"));

    // Rows: title, caption, data badge, time, bandwidth, legend.
    placeTitleRows();
    plotLayout()->insertRow(2);
    plotLayout()->addElement(2, 0, badgeElement_);
    plotLayout()->addElement(4, 0, bandwidthRect_);
    placeLegendInRow(this, legend, 5);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(4);
    for (int row : {0, 1, 2, 5}) plotLayout()->setRowStretchFactor(row, 0.001);
    plotLayout()->setRowSpacing(2);

    // One x axis for both: the same N lines up vertically.
    auto* margins = new QCPMarginGroup(this);
    for (QCPAxisRect* rect : {timeRect_, bandwidthRect_}) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        x->setScaleType(QCPAxis::stLogarithmic);
        auto ticker = QSharedPointer<ElementCountTicker>::create();
        ticker->setLogBase(4);
        ticker->setTickCount(8);
        ticker->setSubTickCount(0);
        x->setTicker(ticker);
    }
    // The two rects share N: its numbers and name under the lower one are enough, and the upper
    // one keeps that height for its data.
    timeRect_->axis(QCPAxis::atBottom)->setTickLabels(false);
    timeRect_->axis(QCPAxis::atBottom)->setLabel(QString());
    QCPAxis* time = timeRect_->axis(QCPAxis::atLeft);
    setDecadeAxis(time, kValueDigits);
    time->setLabel(tr("time per run (µs, log)"));
    bandwidthRect_->axis(QCPAxis::atLeft)->setLabel(tr("model bytes / time (GB/s)"));
    rebuild();
}

QString SweepChart::exportPng(const QString& path, int width, int height) {
    return saveImageAsPng(toPixmap(width, height).toImage(), path);
}

QString SweepChart::sizeName() const {
    return data_.sizeDimension.isEmpty() ? tr("size") : data_.sizeDimension;
}

void SweepChart::rebuild() {
    clearPlottables();
    clearItems();
    shownL2N_ = 0.0;
    shownBoundaryN_ = 0.0;
    fitText_.clear();
    badgeText_.clear();
    emptyMessage_.clear();
    badgeElement_->setText(QString());

    titleElement()->setText(data_.title.isEmpty() ? tr("Size sweep") : data_.title);
    setProperty("fusescopeDataSource", data_.dataSource);  // named by hover tooltips
    setProperty("fusescopeGeneration", property("fusescopeGeneration").toInt() + 1);
    captionElement()->setText(data_.caption);
    const bool comparing = data_.comparesRecordings();
    // Compared sweeps have no caption (the window's header gives each one's settings): its row
    // is left out, so that it keeps no empty line's height from the data.
    if (comparing && captionElement()->layout())
        plotLayout()->take(captionElement());
    else if (!comparing && !captionElement()->layout())
        plotLayout()->addElement(1, 0, captionElement());
    // Compared sweeps name two recordings in the legend: two to a row, and shorter axis
    // labels, so that the chart keeps its height for the data on a small screen.
    legend->setWrap(comparing ? 2 : 4);
    timeRect_->axis(QCPAxis::atLeft)
        ->setLabel(comparing ? tr("time (µs, log)") : tr("time per run (µs, log)"));
    // Compared sweeps: a variant keeps one colour in both recordings.
    QStringList variants;
    for (const SweepChartSeries& series : data_.series)
        if (!variants.contains(series.name)) variants << series.name;
    // Two devices have two caches and two fits: the window lists them; the chart keeps to the
    // measured points, one line style per recording, named first in the legend.
    if (comparing) addKeys(variants);
    for (const SweepChartSeries& series : data_.series)
        addSeries(series, int(variants.indexOf(series.name)));
    addRoofline();

    double xLow = 1.0, xHigh = 2.0;
    fitRanges(xLow, xHigh);
    // The swept dimension under the lower rect (the upper one shares it), and what the ticks'
    // suffixes mean where they use any.
    QString swept =
        data_.sizeTitle.isEmpty() ? sizeName() : tr("%1: %2").arg(sizeName(), data_.sizeTitle);
    const QString suffixes = suffixesMeaning(xHigh);
    if (!suffixes.isEmpty()) swept = tr("%1 · %2").arg(swept, suffixes);
    bandwidthRect_->axis(QCPAxis::atBottom)->setLabel(swept);
    // Before any sweep the axes would frame nothing: one message stands in their place.
    const bool empty = data_.series.isEmpty();
    timeRect_->setVisible(!empty);
    bandwidthRect_->setVisible(!empty);
    if (!empty) {
        if (!comparing) {
            addRegimes(xLow, xHigh);
            addL2Line(xLow, xHigh);
            addFitText();
        }
    } else {
        // A sweep under way has its source but no point yet. Not a child of the hidden axis
        // rect, which would hide it too.
        QCPItemText* message = addCentredMessage(
            data_.dataSource.isEmpty()
                ? tr("No sweep yet\nChoose the sizes and press Run sweep, or open a "
                     "sweep file (File > Open).")
                : tr("Measuring the first size…"));
        QFont larger = font();
        larger.setPointSizeF(larger.pointSizeF() * 1.15);
        message->setFont(larger);
        message->setObjectName(QStringLiteral("empty_message"));
        emptyMessage_ = message->text();
    }
    // Where the numbers come from, as soon as that is known.
    if (!empty || !data_.dataSource.isEmpty()) addBadge();
    legend->setVisible(legend->itemCount() > 0);
    applyPalette();
    replot(QCustomPlot::rpQueuedReplot);
}

void SweepChart::addSeries(const SweepChartSeries& series, int variant) {
    const QColor color = seriesColor(variant);
    QVector<double> n, timeUs, gbps;
    for (const SweepChartPoint& point : series.points) {
        if (point.n <= 0 || point.timeMs <= 0) continue;  // log axes: nothing to place
        n.append(point.n);
        timeUs.append(point.timeMs * 1e3);
        gbps.append(point.gbps);
    }
    const QCPScatterStyle dots = variantDots(variant, series.recording, color);
    const QPen pen(color, 2, recordingLine(series.recording));
    // Compared sweeps: a hovered point names its recording too; the legend has keys instead.
    const bool comparing = data_.comparesRecordings();
    const QString name =
        comparing && series.recording < data_.recordings.size()
            ? tr("%1 — %2").arg(series.name, data_.recordings[series.recording].name)
            : series.name;
    QCPGraph* measuredTime = addCurve(timeRect_, name, pen, n, timeUs);
    measuredTime->setScatterStyle(dots);
    if (comparing) measuredTime->removeFromLegend();
    QCPGraph* measuredBandwidth = addCurve(bandwidthRect_, name, pen, n, gbps);
    measuredBandwidth->setScatterStyle(dots);
    measuredBandwidth->removeFromLegend();

    if (!series.fit || n.isEmpty() || data_.comparesRecordings()) return;
    // The fitted model over the measured range, evenly spaced on the log axis.
    const double low = n.front(), high = n.back();
    QVector<double> fitN, fitTimeUs, fitGBps;
    for (int k = 0; k < kFitCurvePoints; ++k) {
        const double x = low * std::pow(high / low, k / double(kFitCurvePoints - 1));
        const double t = series.fittedTimeMs(x);
        if (t <= 0) continue;
        fitN.append(x);
        fitTimeUs.append(t * 1e3);
        fitGBps.append(x * series.bytesPerElement / (t * 1e6));
    }
    QPen dashed(color, 1.5, Qt::DashLine);
    addCurve(timeRect_, tr("%1 fit").arg(series.name), dashed, fitN, fitTimeUs)->removeFromLegend();
    addCurve(bandwidthRect_, tr("%1 fit").arg(series.name), dashed, fitN, fitGBps)
        ->removeFromLegend();
}

QCPGraph* SweepChart::addCurve(QCPAxisRect* rect, const QString& name, const QPen& pen,
                               const QVector<double>& x, const QVector<double>& y) {
    QCPGraph* curve = addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    curve->setName(name);
    curve->setPen(pen);
    curve->setData(x, y, true);
    return curve;
}

// The copy roofline is measured at every N of the sweep; the first series carries it. Compared
// sweeps have one each, in grey and the recording's line style.
void SweepChart::addRoofline() {
    const int recordings = data_.comparesRecordings() ? int(data_.recordings.size()) : 1;
    bool named = false;
    for (int recording = 0; recording < recordings; ++recording) {
        const auto first = std::find_if(
            data_.series.begin(), data_.series.end(),
            [&](const SweepChartSeries& series) { return series.recording == recording; });
        if (first == data_.series.end()) continue;
        QVector<double> n, gbps;
        for (const SweepChartPoint& point : first->points)
            if (point.n > 0 && point.rooflineGBps > 0) {
                n.append(point.n);
                gbps.append(point.rooflineGBps);
            }
        if (n.isEmpty()) continue;
        QColor grey = palette().color(QPalette::WindowText);
        grey.setAlpha(140);
        QCPGraph* roofline = addCurve(
            bandwidthRect_, tr("copy roofline"),
            QPen(grey, 1.5, data_.comparesRecordings() ? recordingLine(recording) : Qt::DotLine), n,
            gbps);
        if (named) roofline->removeFromLegend();
        named = true;
    }
}

// The legend of compared sweeps, as graphs with no data: each recording by its line style and
// filled or hollow marker (named by device, backend and day), then each variant by its colour
// and marker shape.
void SweepChart::addKeys(const QStringList& variants) {
    const auto addKey = [this](const QString& name, const QPen& pen, const QCPScatterStyle& dot) {
        addCurve(timeRect_, name, pen, {}, {})->setScatterStyle(dot);
    };
    const QColor text = palette().color(QPalette::WindowText);
    for (int recording = 0; recording < data_.recordings.size(); ++recording)
        addKey(data_.recordings[recording].name, QPen(text, 2, recordingLine(recording)),
               variantDots(0, recording, text));
    for (int variant = 0; variant < variants.size(); ++variant) {
        const QColor color = seriesColor(variant);
        addKey(variants[variant], QPen(color, 2), variantDots(variant, 0, color));
    }
}

void SweepChart::fitRanges(double& xLow, double& xHigh) {
    double nLow = 0, nHigh = 0, tLow = 0, tHigh = 0, gLow = 0, gHigh = 0;
    for (int i = 0; i < graphCount(); ++i) {
        QCPGraph* g = graph(i);
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (it->key <= 0) continue;
            nLow = nLow > 0 ? std::min(nLow, it->key) : it->key;
            nHigh = std::max(nHigh, it->key);
            if (g->valueAxis() == timeRect_->axis(QCPAxis::atLeft)) {
                if (it->value > 0) tLow = tLow > 0 ? std::min(tLow, it->value) : it->value;
                tHigh = std::max(tHigh, it->value);
            } else {
                if (it->value > 0) gLow = gLow > 0 ? std::min(gLow, it->value) : it->value;
                gHigh = std::max(gHigh, it->value);
            }
        }
    }
    if (nLow <= 0) {  // nothing to draw: a sensible empty frame
        nLow = 4096;
        nHigh = 1 << 20;
    }
    if (tLow <= 0) {
        tLow = 1;
        tHigh = 1000;
    }
    xLow = nLow / 1.5;
    xHigh = nHigh * 1.5;
    timeRect_->axis(QCPAxis::atBottom)->setRange(xLow, xHigh);
    bandwidthRect_->axis(QCPAxis::atBottom)->setRange(xLow, xHigh);
    // Headroom above for the regime and L2 labels.
    timeRect_->axis(QCPAxis::atLeft)->setRange(tLow / 2, tHigh * 6);
    // A CPU against a GPU is often 100x apart: on a linear axis the CPU's lines lie flat on
    // zero, on a log axis both show their shape.
    QCPAxis* bandwidth = bandwidthRect_->axis(QCPAxis::atLeft);
    const bool logBandwidth = data_.comparesRecordings() && spreadNeedsLogScale(gLow, gHigh);
    if (logBandwidth) {
        setDecadeAxis(bandwidth, kValueDigits);
        bandwidth->setRange(gLow / 2, gHigh * 2);
    } else {
        bandwidth->setScaleType(QCPAxis::stLinear);
        bandwidth->setTicker(QSharedPointer<QCPAxisTicker>::create());
        bandwidth->setNumberFormat(QStringLiteral("gbd"));
        bandwidth->setNumberPrecision(6);
        bandwidth->setRange(0, gHigh > 0 ? gHigh * 1.15 : 1.0);
    }
    bandwidth->setLabel(data_.comparesRecordings() ? (logBandwidth ? tr("GB/s (log)") : tr("GB/s"))
                                                   : tr("model bytes / time (GB/s)"));
}

// Shaded by the first series with a boundary: with one variant that is the whole story; with
// several, their boundaries are printed in the fit text.
void SweepChart::addRegimes(double xLow, double xHigh) {
    const SweepChartSeries* primary = nullptr;
    for (const SweepChartSeries& series : data_.series)
        if (series.fit && series.fit->boundaryN > 0) {
            primary = &series;
            break;
        }
    if (!primary) return;
    const double boundary = primary->fit->boundaryN;
    shownBoundaryN_ = boundary;

    const QColor launchTint(0xe8, 0x8a, 0x2e, 28), bandwidthTint(0x3b, 0x82, 0xd6, 22);
    // Each label at its region's outer edge, so that a narrow region's label runs into the other
    // region rather than past the axis.
    struct Region {
        double from, to;
        QColor tint;
        QString label;
        Qt::Alignment edge;
    };
    const Region regions[] = {
        {xLow, std::min(boundary, xHigh), launchTint, tr("launch-bound"), Qt::AlignLeft},
        {std::max(boundary, xLow), xHigh, bandwidthTint, tr("bandwidth-bound"), Qt::AlignRight}};
    for (QCPAxisRect* rect : {timeRect_, bandwidthRect_}) {
        for (const Region& region : regions) {
            if (region.to <= region.from) continue;
            auto* shade = new QCPItemRect(this);
            shade->setLayer(QStringLiteral("grid"));
            shade->setClipAxisRect(rect);
            placeInRect(shade->topLeft, rect, region.from, 0.0);
            placeInRect(shade->bottomRight, rect, region.to, 1.0);
            shade->setPen(Qt::NoPen);
            shade->setBrush(region.tint);
            if (rect != timeRect_) continue;
            auto* label = new QCPItemText(this);
            label->setClipAxisRect(rect);
            placeInRect(label->position, rect,
                        region.edge == Qt::AlignLeft ? region.from : region.to, 0.02);
            label->setPositionAlignment(region.edge | Qt::AlignTop);
            label->setPadding(QMargins(4, 0, 4, 0));
            label->setText(region.label);
        }
    }
    if (boundary > xLow && boundary < xHigh) {
        auto* label = new QCPItemText(this);
        label->setClipAxisRect(timeRect_);
        placeInRect(label->position, timeRect_, boundary, 0.98);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(
            tr("regimes meet (%1): %2 ≈ %3").arg(primary->name, sizeName(), formatN(boundary)));
    }
}

// The L2 holds one array of N elements up to this N: below it, arrays need not reach DRAM.
void SweepChart::addL2Line(double xLow, double xHigh) {
    if (data_.l2CacheBytes <= 0 || data_.elementBytes <= 0) return;
    const double n = data_.l2CacheBytes / data_.elementBytes;
    if (n <= xLow || n >= xHigh) return;
    shownL2N_ = n;
    for (QCPAxisRect* rect : {timeRect_, bandwidthRect_}) {
        auto* line = new QCPItemStraightLine(this);
        line->setClipAxisRect(rect);
        placeInRect(line->point1, rect, n, 0.0);
        placeInRect(line->point2, rect, n, 1.0);
        line->setPen(QPen(palette().color(QPalette::WindowText), 1.2, Qt::DashDotLine));
    }
    auto* label = new QCPItemText(this);
    label->setClipAxisRect(timeRect_);
    placeInRect(label->position, timeRect_, n, 0.11);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setPadding(QMargins(4, 0, 0, 0));
    label->setText(
        tr("L2 %1:\none array of N = %2").arg(formatCacheBytes(data_.l2CacheBytes), formatN(n)));
    label->setTextAlignment(Qt::AlignLeft);
}

void SweepChart::addFitText() {
    QStringList lines{tr("Fit (dashed): time = launches × overhead + bytes / bandwidth")};
    for (const SweepChartSeries& series : data_.series) lines << fitLine(series, sizeName());
    fitText_ = lines.join(QLatin1Char('\n'));
    auto* text = new QCPItemText(this);
    text->setClipAxisRect(bandwidthRect_);
    placeAtRatio(text->position, bandwidthRect_, 0.99, 0.97);
    text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    text->setTextAlignment(Qt::AlignLeft);
    text->setPadding(QMargins(6, 4, 6, 4));
    text->setText(fitText_);
    text->setObjectName(QStringLiteral("fit_text"));
}

void SweepChart::addBadge() {
    badgeText_ = tr("data: %1").arg(data_.dataSource.isEmpty() ? tr("unknown") : data_.dataSource);
    badgeElement_->setText(badgeText_);
}

void SweepChart::applyPalette() {
    paintBackgroundAndAxes({timeRect_, bandwidthRect_});
    paintDottedGrids({timeRect_, bandwidthRect_});
    paintLegend(legend, kBoxOpacity);
    paintTitles({badgeElement_});
    paintTextItems();
    if (auto* fit = findChild<QCPItemText*>(QStringLiteral("fit_text"))) {
        QColor boxBackground = palette().color(QPalette::Base);
        boxBackground.setAlpha(kBoxOpacity);
        fit->setBrush(boxBackground);
        fit->setPen(QPen(palette().color(QPalette::Mid)));
    }
}

}  // namespace fusescope
