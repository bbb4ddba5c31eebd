#include "ui/explorer/tile_roofline.h"

#include <QEvent>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/charts/legend_row.h"

namespace fusescope {
namespace {

constexpr int kRoofSamples = 96;
const QColor kPointColor = ChartBase::seriesColor(0);
const QColor kPathColor = ChartBase::seriesColor(1);
const QColor kUnfusedColor(230, 30, 120);
const QColor kProductionColor(0x2f, 0xa3, 0x6b);

QCPGraph* pointGraph(QCustomPlot* plot, const QString& name, const QCPScatterStyle& style) {
    auto* graph = plot->addGraph();
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    return graph;
}

// Points sorted by intensity (a graph's keys ascend), with their tooltips in the same order.
void setPoints(QCPGraph* graph, QVector<TileRooflinePoint> points) {
    std::sort(points.begin(), points.end(),
              [](const auto& a, const auto& b) { return a.flopsPerByte < b.flopsPerByte; });
    QVector<double> keys, values;
    QStringList notes;
    for (const TileRooflinePoint& point : points) {
        if (point.flopsPerByte <= 0 || point.tflops <= 0) continue;
        keys << point.flopsPerByte;
        values << point.tflops;
        notes << point.tooltip;
    }
    graph->setData(keys, values, true);
    graph->setProperty("fusescopeNotes", notes);
}

}  // namespace

TileRoofline::TileRoofline(QWidget* parent) : DataChart(parent) {
    setObjectName(QStringLiteral("tile_roofline"));
    setMinimumSize(300, 160);
    placeTitleRows();
    legend->setVisible(true);
    placeLegendInRow(this, legend, 3);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(3);
    for (int row : {0, 1}) plotLayout()->setRowStretchFactor(row, 0.001);
    setDecadeAxis(xAxis, 4);
    setDecadeAxis(yAxis, 4);
    xAxis->setLabel(tr("arithmetic intensity (model FLOPs per DRAM byte, log)"));
    yAxis->setLabel(tr("TFLOP/s (log)"));
    rebuild();
}

void TileRoofline::rebuild() {
    clearGraphs();
    clearItems();
    points_ = nullptr;
    pathArrows_ = 0;
    titleElement()->setText(data_.title.isEmpty() ? tr("Tile roofline") : data_.title);
    captionElement()->setText(data_.caption);
    captionElement()->setVisible(!data_.caption.isEmpty());
    setProperty("fusescopeDataSource", data_.dataSource);
    setProperty("fusescopeGeneration", property("fusescopeGeneration").toInt() + 1);

    QVector<TileRooflinePoint> all = data_.points;
    for (const auto& variant : {data_.baseline, data_.leanest})
        if (variant) all << *variant;
    double xLow = std::numeric_limits<double>::infinity(), xHigh = 0.0;
    double yLow = std::numeric_limits<double>::infinity(), yHigh = 0.0;
    for (const TileRooflinePoint& point : all) {
        if (point.flopsPerByte <= 0 || point.tflops <= 0) continue;
        xLow = std::min(xLow, point.flopsPerByte);
        xHigh = std::max(xHigh, point.flopsPerByte);
        yLow = std::min(yLow, point.tflops);
        yHigh = std::max(yHigh, point.tflops);
    }
    const bool empty = xHigh <= 0.0;
    axisRect()->setVisible(!empty);
    legend->setVisible(!empty);
    if (empty) {
        addCentredMessage(data_.emptyMessage.isEmpty()
                              ? tr("No measured configuration yet: run one, sweep, or open a "
                                   "recorded sweep.")
                              : data_.emptyMessage);
        applyPalette();
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // Room around the points, and the ridge (where the roofs meet) in sight.
    if (data_.copyRoofGBps > 0 && data_.computeRoofTflops > 0) {
        const double ridge = data_.computeRoofTflops * 1e3 / data_.copyRoofGBps;
        xLow = std::min(xLow, ridge);
        xHigh = std::max(xHigh, ridge);
        yHigh = std::max(yHigh, data_.computeRoofTflops);
    }
    xLow /= 2.5;
    xHigh *= 2.5;
    yLow /= 2.5;
    yHigh *= 2.0;

    addRoofs(xLow, xHigh);
    points_ = pointGraph(this, tr("measured"),
                         QCPScatterStyle(QCPScatterStyle::ssCircle, kPointColor, 7));
    setPoints(points_, data_.points);
    addPath();
    const auto variantPoint = [&](const std::optional<TileRooflinePoint>& point,
                                  const QString& name, const QColor& color,
                                  QCPScatterStyle::ScatterShape shape) {
        if (!point) return;
        QCPGraph* graph =
            pointGraph(this, name, QCPScatterStyle(shape, QPen(color, 2.0), Qt::NoBrush, 11));
        setPoints(graph, {*point});
    };
    variantPoint(data_.baseline, data_.baselineTitle, kUnfusedColor, QCPScatterStyle::ssTriangle);
    variantPoint(data_.leanest, data_.leanestTitle, kProductionColor, QCPScatterStyle::ssDiamond);
    xAxis->setLabel(data_.perDramByte
                        ? tr("arithmetic intensity (model FLOPs per DRAM byte, log)")
                        : tr("arithmetic intensity (model FLOPs per model byte, log)"));
    xAxis->setRange(xLow, xHigh);
    yAxis->setRange(yLow, yHigh);
    applyPalette();
    replot(QCustomPlot::rpQueuedReplot);
}

void TileRoofline::addRoofs(double xLow, double xHigh) {
    if (data_.copyRoofGBps <= 0 && data_.computeRoofTflops <= 0) return;
    QVector<double> keys, values;
    const double step = std::log(xHigh / xLow) / (kRoofSamples - 1);
    for (int i = 0; i < kRoofSamples; ++i) {
        const double x = xLow * std::exp(step * i);
        double roof = std::numeric_limits<double>::infinity();
        if (data_.copyRoofGBps > 0) roof = data_.copyRoofGBps * x / 1e3;  // GB/s × FLOP/B → TFLOP/s
        if (data_.computeRoofTflops > 0) roof = std::min(roof, data_.computeRoofTflops);
        keys << x;
        values << roof;
    }
    QCPGraph* roof = addGraph();
    // The numbers are in the caption: a short name keeps the legend to a few columns.
    roof->setName(tr("roofs"));
    roof->setPen(QPen(palette().color(QPalette::WindowText), 1.5, Qt::DashLine));
    roof->setData(keys, values, true);
    QStringList notes;
    for (int i = 0; i < keys.size(); ++i)
        notes << (data_.computeRoofSource.isEmpty() ? QString() : data_.computeRoofSource);
    roof->setProperty("fusescopeNotes", notes);
}

// Arrows from each configuration to the next as the followed parameter grows.
void TileRoofline::addPath() {
    QVector<TileRooflinePoint> steps;
    for (const TileRooflinePoint& point : data_.path)
        if (point.flopsPerByte > 0 && point.tflops > 0) steps << point;
    if (steps.size() < 2) return;
    for (int i = 0; i + 1 < steps.size(); ++i) {
        auto* arrow = new QCPItemLine(this);
        arrow->start->setCoords(steps[i].flopsPerByte, steps[i].tflops);
        arrow->end->setCoords(steps[i + 1].flopsPerByte, steps[i + 1].tflops);
        arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 10, 12));
        arrow->setPen(QPen(kPathColor, 2.0));
        arrow->setSelectable(false);
        ++pathArrows_;
    }
    QCPGraph* path = pointGraph(this, tr("as %1 grows").arg(data_.followedParameter),
                                QCPScatterStyle(QCPScatterStyle::ssDisc, kPathColor, 8));
    setPoints(path, steps);
    path->setPen(QPen(kPathColor, 2.0));
}

void TileRoofline::applyPalette() {
    paintBackgroundAndAxes({axisRect()});
    paintDottedGrids({axisRect()});
    paintLegend(legend, kBoxOpacity);
    paintTitles();
    paintTextItems();
}

}  // namespace fusescope
