#include "ui/explorer/tile_heatmap.h"

#include "ui/export/export_text.h"

#include <QEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/charts/legend_row.h"
#include "ui/charts/plot_text_fit.h"

namespace fusescope {
namespace {

// A perceptually even gradient (viridis' stops): dark is worse, bright is better, and it reads
// in grey on a printed slide.
QCPColorGradient metricGradient(bool higherIsBetter) {
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(68, 1, 84));
    gradient.setColorStopAt(0.25, QColor(59, 82, 139));
    gradient.setColorStopAt(0.5, QColor(33, 145, 140));
    gradient.setColorStopAt(0.75, QColor(94, 201, 98));
    gradient.setColorStopAt(1.0, QColor(253, 231, 37));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return higherIsBetter ? gradient : gradient.inverted();
}

// Outside viridis' hues, so the contour reads over every cell colour.
const QColor kContourColor(230, 30, 120);
const QColor kProductionColor(255, 140, 0);

// Tick labels that name the parameter's values ("16", "32", ...) at the cells' indices, every
// `step`-th one.
QSharedPointer<QCPAxisTickerText> valueTicker(const QVector<int>& values, int step = 1) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < values.size(); i += step) ticker->addTick(i, QString::number(values[i]));
    return ticker;
}

// How many cells one label needs: its extent plus a gap, over the pixels of a cell.
int tickStep(double axisPixels, int cells, double labelExtent) {
    if (cells <= 0 || axisPixels <= 0) return 1;
    const double perCell = axisPixels / cells;
    return std::max(1, static_cast<int>(std::ceil((labelExtent + 6.0) / perCell)));
}

// Labelled ticks at 1, 2 and 5 of each decade inside [low, high] (at least the two ends): a
// power-of-ten ticker alone labels one tick, or none, on a span of 10 to 100.
QSharedPointer<QCPAxisTickerText> logTicker(double low, double high) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    int labelled = 0;
    for (int decade = static_cast<int>(std::floor(std::log10(low)));
         decade <= static_cast<int>(std::ceil(std::log10(high))); ++decade)
        for (double mantissa : {1.0, 2.0, 5.0}) {
            const double value = mantissa * std::pow(10.0, decade);
            if (value < low * (1 - 1e-9) || value > high * (1 + 1e-9)) continue;
            ticker->addTick(value, QString::number(value, 'g', 3));
            ++labelled;
        }
    if (labelled < 2) {
        ticker->addTick(low, QString::number(low, 'g', 3));
        ticker->addTick(high, QString::number(high, 'g', 3));
    }
    ticker->setSubTickCount(0);
    return ticker;
}

QCPGraph* markGraph(QCustomPlot* plot, const QString& name, QCPScatterStyle style) {
    auto* graph = plot->addGraph();
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    return graph;
}

}  // namespace

TileHeatmap::TileHeatmap(QWidget* parent) : DataChart(parent) {
    setObjectName(QStringLiteral("tile_heatmap"));
    setMinimumSize(300, 160);

    QCPAxisRect* rect = axisRect();
    plotLayout()->take(rect);
    plotLayout()->simplify();
    scale_ = new QCPColorScale(this);
    scale_->setType(QCPAxis::atRight);
    scale_->setBarWidth(14);
    auto* body = new QCPLayoutGrid;
    // Rows: title, caption, the map beside its colour scale, legend; the summary goes between
    // title and caption while it has text (placeSummary).
    plotLayout()->addElement(0, 0, titleElement());
    plotLayout()->addElement(1, 0, captionElement());
    plotLayout()->addElement(2, 0, body);
    body->addElement(0, 0, rect);
    body->addElement(0, 1, scale_);
    body->setColumnStretchFactor(1, 0.01);
    auto* margins = new QCPMarginGroup(this);
    rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    legend->setVisible(true);
    placeLegendInRow(this, legend, 3);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(3);
    for (int row : {0, 1}) plotLayout()->setRowStretchFactor(row, 0.001);
    summary_ = new QCPTextElement(this, QString(), font());
    summary_->setVisible(false);
    // The summary is what the map is read for: it keeps every line it needs, where the caption
    // (device, shape, the other parameters) gives up lines on a short plot.
    keepCaptionWhole(summary_);

    map_ = new QCPColorMap(xAxis, yAxis);
    map_->setInterpolate(false);
    map_->setColorScale(scale_);
    map_->setName(tr("metric"));
    map_->removeFromLegend();
    setMouseTracking(true);
    connect(this, &QCustomPlot::afterLayout, this, &TileHeatmap::thinTickLabels);
    rebuild();
}

void TileHeatmap::thinTickLabels() {
    if (data_.xValues.isEmpty() || data_.yValues.isEmpty()) return;
    const QFontMetricsF metrics(xAxis->tickLabelFont());
    double widest = 0.0;
    for (int value : data_.xValues)
        widest = std::max(widest, metrics.horizontalAdvance(QString::number(value)));
    const QRect rect = axisRect()->rect();
    const int xStep = tickStep(rect.width(), static_cast<int>(data_.xValues.size()), widest);
    const int yStep = tickStep(rect.height(), static_cast<int>(data_.yValues.size()),
                               QFontMetricsF(yAxis->tickLabelFont()).height());
    if (xStep == xTickStep_ && yStep == yTickStep_) return;
    xTickStep_ = xStep;
    yTickStep_ = yStep;
    xAxis->setTicker(valueTicker(data_.xValues, xStep));
    yAxis->setTicker(valueTicker(data_.yValues, yStep));
    // The labels this layout drew are the old ones: draw again with the new.
    replot(QCustomPlot::rpQueuedReplot);
}

// An empty text element still takes a line's height in the layout: the summary has a row of its
// own only while it has text.
void TileHeatmap::placeSummary() {
    const bool wanted = summary_->visible();
    if (wanted == (summary_->layout() != nullptr)) return;
    if (wanted) {
        plotLayout()->insertRow(1);
        plotLayout()->addElement(1, 0, summary_);
        plotLayout()->setRowStretchFactor(1, 0.001);
    } else {
        plotLayout()->take(summary_);
        plotLayout()->simplify();
    }
}

const TileHeatmapCell* TileHeatmap::cellAt(const QPointF& at) const {
    if (!axisRect()->visible() || !axisRect()->rect().contains(at.toPoint())) return nullptr;
    const int column = static_cast<int>(std::lround(xAxis->pixelToCoord(at.x())));
    const int row = static_cast<int>(std::lround(yAxis->pixelToCoord(at.y())));
    for (const TileHeatmapCell& cell : data_.cells)
        if (cell.column == column && cell.row == row) return &cell;
    return nullptr;
}

QString TileHeatmap::tooltipAt(const QPointF& at) const {
    const TileHeatmapCell* cell = cellAt(at);
    return cell ? cell->tooltip : QString();
}

QPointF TileHeatmap::cellCentre(const TileHeatmapCell& cell) const {
    return {xAxis->coordToPixel(cell.column), yAxis->coordToPixel(cell.row)};
}

void TileHeatmap::mousePressEvent(QMouseEvent* event) {
    pressed_ = event->button() == Qt::LeftButton;
    pressedAt_ = event->position();
    QCustomPlot::mousePressEvent(event);
}

// A click loads the cell's run; a drag pans the map and loads nothing.
void TileHeatmap::mouseReleaseEvent(QMouseEvent* event) {
    QCustomPlot::mouseReleaseEvent(event);
    if (!pressed_ || event->button() != Qt::LeftButton) return;
    pressed_ = false;
    if ((event->position() - pressedAt_).manhattanLength() > 4) return;
    if (const TileHeatmapCell* cell = cellAt(event->position()); cell && cell->runIndex >= 0)
        emit cellClicked(cell->runIndex);
}

void TileHeatmap::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton) return;
    // After the chart's own hover (which knows the marks' points): the cell says more.
    if (const QString text = tooltipAt(event->position()); !text.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void TileHeatmap::rebuild() {
    clearGraphs();
    clearItems();
    refusedMarks_ = 0;
    contourSegments_ = 0;
    offScaleMarks_ = 0;
    logScale_ = false;
    titleElement()->setText(data_.title.isEmpty() ? tr("Tile sweep") : data_.title);
    summary_->setText(data_.summary);
    summary_->setVisible(!data_.summary.isEmpty());
    placeSummary();
    captionElement()->setText(data_.caption);
    captionElement()->setVisible(!data_.caption.isEmpty());
    setProperty("fusescopeDataSource", data_.dataSource);
    setProperty("fusescopeGeneration", property("fusescopeGeneration").toInt() + 1);

    const int columns = static_cast<int>(data_.xValues.size());
    const int rows = static_cast<int>(data_.yValues.size());
    const bool empty = columns == 0 || rows == 0;
    axisRect()->setVisible(!empty);
    scale_->setVisible(!empty);
    legend->setVisible(!empty);
    if (empty) {
        map_->data()->clear();
        addCentredMessage(data_.emptyMessage.isEmpty()
                              ? tr("No tile sweep yet: run a sweep, or open a recorded one.")
                              : data_.emptyMessage);
        applyPalette();
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // A map of one column or row still needs two to know a cell's width: the second stays empty.
    const int dataColumns = std::max(columns, 2);
    const int dataRows = std::max(rows, 2);
    map_->data()->setSize(dataColumns, dataRows);
    map_->data()->setRange(QCPRange(0, dataColumns - 1), QCPRange(0, dataRows - 1));
    map_->data()->fill(std::numeric_limits<double>::quiet_NaN());
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    for (const TileHeatmapCell& cell : data_.cells) {
        if (!cell.value || cell.column >= columns || cell.row >= rows) continue;
        map_->data()->setCell(cell.column, cell.row, *cell.value);
        low = std::min(low, *cell.value);
        high = std::max(high, *cell.value);
    }
    // The scale is the measured cells' alone: the references (often several times slower) are
    // marked on it, never stretch it, or every cell would share one colour.
    if (!std::isfinite(low)) low = 0.0, high = 1.0;
    if (high - low < std::abs(high) * 1e-9 + 1e-12)
        high = low + std::max(std::abs(low), 1.0) * 0.01;
    map_->setGradient(metricGradient(data_.higherIsBetter));
    // Time-like cells spanning more than a factor of 10 (a crawling configuration next to good
    // ones) get a log scale: on a linear one every good cell would share one colour.
    logScale_ = data_.logScaleWhenWide && low > 0 && high / low > kLogScaleSpan;
    map_->setDataScaleType(logScale_ ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    scale_->axis()->setNumberFormat(QStringLiteral("gb"));
    scale_->axis()->setTicker(logScale_ ? logTicker(low, high)
                                        : QSharedPointer<QCPAxisTicker>::create());
    map_->setDataRange(QCPRange(low, high));
    // setDataRange may widen the colour axis by rounding; the bar shows exactly the cells' span.
    scale_->axis()->setRange(low, high);
    scale_->axis()->setLabel(logScale_ ? tr("%1, log scale").arg(data_.metricTitle)
                                       : data_.metricTitle);

    xAxis->setTicker(valueTicker(data_.xValues, xTickStep_));
    yAxis->setTicker(valueTicker(data_.yValues, yTickStep_));
    xAxis->setLabel(data_.xTitle);
    yAxis->setLabel(data_.yTitle);
    xAxis->setRange(-0.5, columns - 0.5);
    yAxis->setRange(-0.5, rows - 0.5);
    xAxis->grid()->setVisible(false);
    yAxis->grid()->setVisible(false);
    addMarks();
    addContour();
    addScaleMarks(low, high);
    applyPalette();
    replot(QCustomPlot::rpQueuedReplot);
}

void TileHeatmap::addMarks() {
    const QColor text = palette().color(QPalette::WindowText);
    QVector<double> refusedX, refusedY, bestX, bestY, tieX, tieY;
    for (const TileHeatmapCell& cell : data_.cells) {
        if (!cell.refusal.isEmpty()) {
            refusedX << cell.column;
            refusedY << cell.row;
            auto* hatch = new QCPItemRect(this);
            hatch->topLeft->setCoords(cell.column - 0.5, cell.row + 0.5);
            hatch->bottomRight->setCoords(cell.column + 0.5, cell.row - 0.5);
            QColor stroke = text;
            stroke.setAlpha(90);
            hatch->setPen(Qt::NoPen);
            hatch->setBrush(QBrush(stroke, Qt::BDiagPattern));
            hatch->setSelectable(false);
        } else if (cell.best) {
            bestX << cell.column;
            bestY << cell.row;
        } else if (cell.tiedWithBest) {
            tieX << cell.column;
            tieY << cell.row;
        }
    }
    refusedMarks_ = static_cast<int>(refusedX.size());
    // Each mark in the text colour over a halo of the background: one of the two shows over every
    // cell colour, and the legend's icon reads in both themes.
    const QColor halo = palette().color(QPalette::Base);
    const auto mark = [&](const QString& name, QCPScatterStyle::ScatterShape shape, double size,
                          const QVector<double>& xs, const QVector<double>& ys,
                          const QString& exportName = QString()) {
        QCPGraph* under =
            markGraph(this, QString(), QCPScatterStyle(shape, QPen(halo, 5.0), Qt::NoBrush, size));
        under->setData(xs, ys);
        under->removeFromLegend();
        QCPGraph* over =
            markGraph(this, name, QCPScatterStyle(shape, QPen(text, 2.0), Qt::NoBrush, size));
        over->setData(xs, ys);
        if (!exportName.isEmpty()) setExportText(over, exportName);
        if (xs.isEmpty()) over->removeFromLegend();
    };
    // A slide has no pointer to hover with: its legend says "refused" alone.
    mark(tr("refused (hover: why)"), QCPScatterStyle::ssCross, 12, refusedX, refusedY,
         tr("refused"));
    mark(tr("best"), QCPScatterStyle::ssStar, 18, bestX, bestY);
    mark(tr("tied with the best"), QCPScatterStyle::ssCircle, 16, tieX, tieY);
}

// The outline of the cells faster than the 5-kernel path: an edge wherever such a cell meets
// one that is not (or the map's border).
void TileHeatmap::addContour() {
    const int columns = static_cast<int>(data_.xValues.size());
    const int rows = static_cast<int>(data_.yValues.size());
    QVector<bool> faster(columns * rows, false);
    for (const TileHeatmapCell& cell : data_.cells)
        if (cell.fasterThanBaseline && cell.column < columns && cell.row < rows)
            faster[cell.row * columns + cell.column] = true;
    const auto isFaster = [&](int column, int row) {
        return column >= 0 && row >= 0 && column < columns && row < rows &&
               faster[row * columns + column];
    };
    const QPen pen(kContourColor, 2.5);
    const auto segment = [&](double x1, double y1, double x2, double y2) {
        auto* line = new QCPItemLine(this);
        line->start->setCoords(x1, y1);
        line->end->setCoords(x2, y2);
        line->setPen(pen);
        line->setSelectable(false);
        ++contourSegments_;
    };
    for (int row = 0; row < rows; ++row)
        for (int column = 0; column < columns; ++column) {
            if (!isFaster(column, row)) continue;
            const double left = column - 0.5, right = column + 0.5;
            const double bottom = row - 0.5, top = row + 0.5;
            if (!isFaster(column - 1, row)) segment(left, bottom, left, top);
            if (!isFaster(column + 1, row)) segment(right, bottom, right, top);
            if (!isFaster(column, row - 1)) segment(left, bottom, right, bottom);
            if (!isFaster(column, row + 1)) segment(left, top, right, top);
        }
    if (contourSegments_ > 0) {
        QCPGraph* key = addGraph();
        key->setName(tr("faster than %1").arg(data_.baselineTitle));
        key->setPen(pen);
    }
}

// The unfused and production variants as lines across the colour bar, on the cells' scale; one
// outside it is drawn dotted at the bar's end and its legend entry says it is off the scale.
void TileHeatmap::addScaleMarks(double low, double high) {
    QCPAxisRect* bar = scale_->axis()->axisRect();
    const auto mark = [&](double value, QPen pen, const QString& title) {
        const bool above = value > high;
        const bool below = value < low;
        const double drawnAt = std::clamp(value, low, high);
        if (above || below) {
            pen.setStyle(Qt::DotLine);
            ++offScaleMarks_;
        }
        auto* line = new QCPItemLine(this);
        line->setClipToAxisRect(false);
        for (QCPItemPosition* end : {line->start, line->end}) {
            end->setAxisRect(bar);
            end->setAxes(bar->axis(QCPAxis::atBottom), scale_->axis());
            end->setTypeX(QCPItemPosition::ptAxisRectRatio);
            end->setTypeY(QCPItemPosition::ptPlotCoords);
        }
        line->start->setCoords(0.0, drawnAt);
        line->end->setCoords(1.0, drawnAt);
        line->setPen(pen);
        line->setSelectable(false);
        const QString number = QString::number(value, 'g', 3);
        QCPGraph* key = addGraph();
        key->setName(above   ? tr("%1 %2 (above the scale)").arg(title, number)
                     : below ? tr("%1 %2 (below the scale)").arg(title, number)
                             : tr("%1 %2").arg(title, number));
        key->setPen(pen);
    };
    if (data_.baselineValue)
        mark(*data_.baselineValue, QPen(kContourColor, 3.0), data_.baselineTitle);
    if (data_.leanestValue)
        mark(*data_.leanestValue, QPen(kProductionColor, 3.0, Qt::DashLine), data_.leanestTitle);
}

void TileHeatmap::applyPalette() {
    paintBackgroundAndAxes({axisRect(), scale_->axis()->axisRect()});
    // The colour bar's rect draws its background after the gradient: a brush there hides it.
    scale_->axis()->axisRect()->setBackground(Qt::NoBrush);
    paintLegend(legend, kBoxOpacity);
    paintTitles({summary_});
    paintTextItems();
}

}  // namespace fusescope
