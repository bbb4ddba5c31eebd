// The tile heatmap alone, from hand-made data (Qt Test, offscreen): the colour bar shows the
// metric's gradient with ticks in its units, the colour range is the measured cells' (the
// references are marked on it without stretching it), and wide time spans get a labelled log
// scale, whose numbers follow the presentation's text and keep apart on a short bar.
#include <QtTest>
#include <cmath>

#include "layout_checks.h"
#include "ui/charts/plot_font_follow.h"
#include "ui/charts/plot_text_fit.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/window/appearance.h"

using namespace fusescope;

namespace {

// A 2 x 2 grid with these values (row-major), and the references.
TileHeatmapData grid(const QVector<double>& values, std::optional<double> unfused = {},
                     std::optional<double> production = {}) {
    TileHeatmapData data;
    data.title = QStringLiteral("Tile sweep: time");
    data.xTitle = QStringLiteral("BLOCK_N");
    data.yTitle = QStringLiteral("BLOCK_M");
    data.xValues = {16, 32};
    data.yValues = {16, 32};
    data.metricTitle = QStringLiteral("time (ms, median)");
    data.logScaleWhenWide = true;
    for (int index = 0; index < values.size(); ++index) {
        TileHeatmapCell cell;
        cell.column = index % 2;
        cell.row = index / 2;
        cell.value = values[index];
        cell.runIndex = index;
        data.cells.push_back(cell);
    }
    data.baselineValue = unfused;
    data.leanestValue = production;
    data.baselineTitle = QStringLiteral("5 kernels");
    data.leanestTitle = QStringLiteral("production");
    return data;
}

// Lays the heatmap out at a fixed size and draws it.
QImage drawn(TileHeatmap& heatmap) {
    heatmap.resize(700, 450);
    heatmap.replot(QCustomPlot::rpImmediateRefresh);
    return heatmap.grab().toImage();
}

QColor pixelAt(const QImage& image, const QPoint& at) {
    const double ratio = image.devicePixelRatio();
    return image.pixelColor(static_cast<int>(at.x() * ratio), static_cast<int>(at.y() * ratio));
}

int colourDistance(const QColor& a, const QColor& b) {
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
           std::abs(a.blue() - b.blue());
}

// The colour axis's ticks inside its range.
int ticksInRange(const TileHeatmap& heatmap) {
    const QCPRange range = heatmap.colorScale()->axis()->range();
    int inside = 0;
    for (double tick : heatmap.colorScale()->axis()->tickVector())
        if (tick >= range.lower * (1 - 1e-9) && tick <= range.upper * (1 + 1e-9)) ++inside;
    return inside;
}

QStringList legendNames(const TileHeatmap& heatmap) {
    QStringList names;
    for (int index = 0; index < heatmap.graphCount(); ++index)
        if (heatmap.legend->hasItemWithPlottable(heatmap.graph(index)))
            names << heatmap.graph(index)->name();
    return names;
}

// Every one of `entries` is in the legend; a failure lists the legend's entries.
void verifyLegendHas(const TileHeatmap& heatmap, const QStringList& entries) {
    const QStringList names = legendNames(heatmap);
    for (const QString& entry : entries)
        QVERIFY2(names.contains(entry), qPrintable(names.join(QStringLiteral(" | "))));
}

}  // namespace

class TileHeatmapTest : public QObject {
    Q_OBJECT
  private slots:
    void colourBarShowsTheGradientWithTicksInTheMetricsUnit();
    void referencesAreMarkedWithoutStretchingTheScale();
    void referencesInsideTheRangeAreMarkedOnIt();
    void wideTimeSpansGetALabelledLogScale();
    void colourBarReadsInThePresentation();
};

void TileHeatmapTest::colourBarShowsTheGradientWithTicksInTheMetricsUnit() {
    TileHeatmap heatmap;
    heatmap.setData(grid({1.0, 2.0, 3.0, 4.0}));
    const QImage image = drawn(heatmap);
    const QRect bar = heatmap.colorScale()->axis()->axisRect()->rect();
    QVERIFY(bar.height() > 40);
    const QCPRange range = heatmap.colorMap()->dataRange();
    QCPColorGradient gradient = heatmap.colorMap()->gradient();
    // The bar's top is the range's high end, its bottom the low end, in the map's colours.
    const QColor top = pixelAt(image, QPoint(bar.center().x(), bar.top() + 3));
    const QColor bottom = pixelAt(image, QPoint(bar.center().x(), bar.bottom() - 3));
    const QColor high = QColor::fromRgb(gradient.color(range.upper, range));
    const QColor low = QColor::fromRgb(gradient.color(range.lower, range));
    QVERIFY2(colourDistance(top, high) < 60,
             qPrintable(QStringLiteral("top %1, expected %2").arg(top.name(), high.name())));
    QVERIFY2(colourDistance(bottom, low) < 60,
             qPrintable(QStringLiteral("bottom %1, expected %2").arg(bottom.name(), low.name())));
    QVERIFY(colourDistance(top, bottom) > 150);
    // Ticks in the metric's unit, the unit named on the bar.
    QCOMPARE(heatmap.colorScale()->axis()->label(), QStringLiteral("time (ms, median)"));
    QVERIFY2(ticksInRange(heatmap) >= 2, qPrintable(QString::number(ticksInRange(heatmap))));
}

void TileHeatmapTest::referencesAreMarkedWithoutStretchingTheScale() {
    TileHeatmap heatmap;
    // The 5-kernel path ten times slower than any cell, the production fusion faster than all.
    heatmap.setData(grid({1.0, 1.5, 2.0, 2.5}, 10.0, 0.5));
    drawn(heatmap);
    const QCPRange range = heatmap.colorMap()->dataRange();
    QCOMPARE(range.lower, 1.0);
    QCOMPARE(range.upper, 2.5);
    QVERIFY(!heatmap.logScale());
    QCOMPARE(heatmap.offScaleMarks(), 2);
    verifyLegendHas(heatmap, {QStringLiteral("5 kernels 10 (above the scale)"),
                              QStringLiteral("production 0.5 (below the scale)")});
    // The cells keep distinct colours: the fastest and the slowest are far apart.
    QCPColorGradient gradient = heatmap.colorMap()->gradient();
    QVERIFY(colourDistance(QColor::fromRgb(gradient.color(1.0, range)),
                           QColor::fromRgb(gradient.color(2.5, range))) > 150);
}

void TileHeatmapTest::referencesInsideTheRangeAreMarkedOnIt() {
    TileHeatmap heatmap;
    heatmap.setData(grid({1.0, 1.5, 2.0, 2.5}, 2.2, 1.2));
    drawn(heatmap);
    QCOMPARE(heatmap.colorMap()->dataRange().upper, 2.5);
    QCOMPARE(heatmap.offScaleMarks(), 0);
    verifyLegendHas(heatmap, {QStringLiteral("5 kernels 2.2"), QStringLiteral("production 1.2")});
}

void TileHeatmapTest::wideTimeSpansGetALabelledLogScale() {
    TileHeatmap heatmap;
    heatmap.setData(grid({0.12, 0.3, 0.9, 5.0}));
    drawn(heatmap);
    QVERIFY(heatmap.logScale());
    QCOMPARE(heatmap.colorMap()->dataScaleType(), QCPAxis::stLogarithmic);
    QVERIFY2(heatmap.colorScale()->axis()->label().contains(QStringLiteral("log scale")),
             qPrintable(heatmap.colorScale()->axis()->label()));
    QVERIFY2(ticksInRange(heatmap) >= 3, qPrintable(QString::number(ticksInRange(heatmap))));
    // Up to a factor of 10 the scale stays linear.
    heatmap.setData(grid({0.5, 1.0, 2.0, 4.9}));
    drawn(heatmap);
    QVERIFY(!heatmap.logScale());
    QCOMPARE(heatmap.colorMap()->dataScaleType(), QCPAxis::stLinear);
    // A metric that is not time-like stays linear whatever its span.
    TileHeatmapData registers = grid({8.0, 40.0, 120.0, 255.0});
    registers.logScaleWhenWide = false;
    heatmap.setData(registers);
    drawn(heatmap);
    QVERIFY(!heatmap.logScale());
}

// The colour bar's axis lies outside the plot's layout: it still takes the presentation's text,
// and over five decades on a short bar its 1, 2 and 5 of each decade, closer than a line, are
// thinned to numbers that read apart.
void TileHeatmapTest::colourBarReadsInThePresentation() {
    TileHeatmap heatmap;
    // As the window fits and sizes every chart's text.
    fitPlotTextAlways(&heatmap);
    followWidgetFont(&heatmap);
    heatmap.setFont(presentationFont(heatmap.font(), heatmap.logicalDpiY()));
    heatmap.setData(grid({0.001, 0.3, 0.9, 500.0}));
    heatmap.resize(620, 400);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    heatmap.replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(heatmap.logScale());
    const QCPAxis* bar = heatmap.colorScale()->axis();
    QVERIFY2(QFontInfo(bar->tickLabelFont()).pixelSize() >= kPresentationTextPixels,
             qPrintable(QString::number(QFontInfo(bar->tickLabelFont()).pixelSize())));
    QVERIFY2(QFontInfo(bar->labelFont()).pixelSize() >= kPresentationTextPixels,
             qPrintable(QString::number(QFontInfo(bar->labelFont()).pixelSize())));
    const QStringList problems = testing::plotProblems(heatmap);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    // Some of them are left to read the colours by.
    const QStringList labels = bar->tickVectorLabels().toList();
    QVERIFY2(labels.size() - labels.count(QString()) >= 3, qPrintable(labels.join(' ')));
}

QTEST_MAIN(TileHeatmapTest)
#include "tile_heatmap_test.moc"
