// Charts can be looked into: the wheel zooms, a drag pans (except where the left button seeks
// the stage), a double-click returns to the chart's own ranges, and hovering a point shows its
// exact values, its series, notes and the numbers' source. Every chart of the window has it.
#include <QApplication>
#include <QtTest>

#include "support/settings_folder.h"
#include "ui/charts/chart_interaction.h"
#include "ui/charts/charts.h"
#include "ui/window/main_window.h"

using namespace fusescope;

namespace {

void sendMouse(QWidget* widget, QEvent::Type type, const QPointF& at, Qt::MouseButton button,
               Qt::MouseButtons buttons) {
    QMouseEvent event(type, at, widget->mapToGlobal(at), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(widget, &event);
}

void sendWheel(QWidget* widget, const QPointF& at, int steps) {
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, 120 * steps), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

struct TestPlot {
    QCustomPlot plot;
    QCPGraph* graph = nullptr;
    TestPlot() {
        plot.resize(500, 400);
        graph = plot.addGraph();
        graph->setName(QStringLiteral("measured"));
        graph->setData({1.0, 2.0, 3.0}, {10.0, 20.123456, 15.0});
        plot.xAxis->setLabel(QStringLiteral("N"));
        plot.yAxis->setLabel(QStringLiteral("time (ms)"));
        plot.xAxis->setRange(0, 4);
        plot.yAxis->setRange(0, 30);
        plot.setProperty("fusescopeDataSource", QStringLiteral("timing + model"));
        makeChartInteractive(&plot);
        plot.show();
        plot.replot(QCustomPlot::rpImmediateRefresh);
    }
    QPointF pixelOf(double key, double value) const { return graph->coordsToPixels(key, value); }
};

}  // namespace

class ChartInteractionTest : public QObject {
    Q_OBJECT
  private slots:
    void hoverNamesExactValueAndSource();
    void wheelZoomsDragPansDoubleClickResets();
    void doubleClickResetsTheColourBarToo();
    void whereClicksSeekTheDragDoesNotPan();
    void barsNameTheirCategoryAndNotes();
    void everyChartOfTheWindowIsInteractive();
    void barsCountKernelsInWords();
};

void ChartInteractionTest::hoverNamesExactValueAndSource() {
    TestPlot test;
    QVERIFY(QTest::qWaitForWindowExposed(&test.plot));
    const QString tip = chartPointTooltip(&test.plot, test.pixelOf(2.0, 20.123456));
    QVERIFY2(tip.contains(QStringLiteral("measured")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("N: 2")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("time (ms): 20.1235")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("source: timing + model")), qPrintable(tip));
    // Far from every point and line: nothing.
    QVERIFY(chartPointTooltip(&test.plot, test.pixelOf(3.9, 29.0)).isEmpty());
}

void ChartInteractionTest::wheelZoomsDragPansDoubleClickResets() {
    TestPlot test;
    QVERIFY(QTest::qWaitForWindowExposed(&test.plot));
    const QPointF centre = test.plot.axisRect()->rect().center();
    sendWheel(&test.plot, centre, 2);
    QVERIFY2(test.plot.xAxis->range().size() < 4.0 - 0.1,
             qPrintable(QString::number(test.plot.xAxis->range().size())));
    QVERIFY(test.plot.yAxis->range().size() < 30.0 - 0.1);

    const QCPRange beforeDrag = test.plot.xAxis->range();
    sendMouse(&test.plot, QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
    sendMouse(&test.plot, QEvent::MouseMove, centre + QPointF(80, 0), Qt::NoButton, Qt::LeftButton);
    sendMouse(&test.plot, QEvent::MouseButtonRelease, centre + QPointF(80, 0), Qt::LeftButton,
              Qt::NoButton);
    QVERIFY(test.plot.xAxis->range().lower < beforeDrag.lower - 0.01);

    sendMouse(&test.plot, QEvent::MouseButtonDblClick, centre, Qt::LeftButton, Qt::LeftButton);
    QCOMPARE(test.plot.xAxis->range().lower, 0.0);
    QCOMPARE(test.plot.xAxis->range().upper, 4.0);
    QCOMPARE(test.plot.yAxis->range().upper, 30.0);

    // New data with new ranges of its own: a double-click after zooming returns to those.
    sendWheel(&test.plot, centre, 2);
    test.plot.xAxis->setRange(0, 8);
    test.plot.setProperty("fusescopeGeneration", 1);
    sendWheel(&test.plot, centre, 2);
    QVERIFY(test.plot.xAxis->range().size() < 8.0 - 0.1);
    sendMouse(&test.plot, QEvent::MouseButtonDblClick, centre, Qt::LeftButton, Qt::LeftButton);
    QCOMPARE(test.plot.xAxis->range().upper, 8.0);
}

// A colour scale's bar zooms and pans its own axis, which lies outside the plot's layout; the
// double-click returns it to the chart's range like every other axis.
void ChartInteractionTest::doubleClickResetsTheColourBarToo() {
    TestPlot test;
    auto* scale = new QCPColorScale(&test.plot);
    test.plot.plotLayout()->addElement(0, 1, scale);
    scale->setDataRange(QCPRange(0, 100));
    test.plot.replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(QTest::qWaitForWindowExposed(&test.plot));
    const QPointF onTheBar = scale->axis()->axisRect()->rect().center();
    sendWheel(&test.plot, onTheBar, 2);
    QVERIFY2(scale->dataRange().size() < 100.0 - 1.0,
             qPrintable(QString::number(scale->dataRange().size())));
    sendMouse(&test.plot, QEvent::MouseButtonDblClick, onTheBar, Qt::LeftButton, Qt::LeftButton);
    QCOMPARE(scale->dataRange().lower, 0.0);
    QCOMPARE(scale->dataRange().upper, 100.0);
}

void ChartInteractionTest::whereClicksSeekTheDragDoesNotPan() {
    TestPlot test;
    test.plot.setProperty("fusescopeClickSeeks", true);
    QVERIFY(QTest::qWaitForWindowExposed(&test.plot));
    const QPointF centre = test.plot.axisRect()->rect().center();
    sendMouse(&test.plot, QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
    sendMouse(&test.plot, QEvent::MouseMove, centre + QPointF(80, 0), Qt::NoButton, Qt::LeftButton);
    sendMouse(&test.plot, QEvent::MouseButtonRelease, centre + QPointF(80, 0), Qt::LeftButton,
              Qt::NoButton);
    QCOMPARE(test.plot.xAxis->range().lower, 0.0);
    sendWheel(&test.plot, centre, 2);
    QVERIFY(test.plot.xAxis->range().size() < 4.0 - 0.1);
}

void ChartInteractionTest::barsNameTheirCategoryAndNotes() {
    QCustomPlot plot;
    plot.resize(500, 400);
    auto* bars = new QCPBars(plot.xAxis, plot.yAxis);
    bars->setName(QStringLiteral("measured time (median)"));
    bars->setData({1.0, 2.0}, {3.5, 7.25});
    bars->setProperty("fusescopeNotes",
                      QStringList{QStringLiteral("first note"), QStringLiteral("second note")});
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(1.0, QStringLiteral("scratch\n5 passes"));
    ticker->addTick(2.0, QStringLiteral("fused\n3 passes"));
    plot.xAxis->setTicker(ticker);
    plot.xAxis->setRange(0.4, 2.6);
    plot.yAxis->setRange(0, 10);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot(QCustomPlot::rpImmediateRefresh);
    const QString tip = chartPointTooltip(&plot, bars->coordsToPixels(2.0, 4.0));
    QVERIFY2(tip.contains(QStringLiteral("fused · 3 passes")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("7.25")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("second note")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("source: not stated")), qPrintable(tip));
}

void ChartInteractionTest::everyChartOfTheWindowIsInteractive() {
    testsupport::SettingsFolder folder;
    QVERIFY(folder.isValid());
    MainWindow window(folder.settings());
    const QList<QCustomPlot*> plots = window.findChildren<QCustomPlot*>();
    QVERIFY(plots.size() >= 5);  // three run charts, the sweep chart, the live chart
    for (const QCustomPlot* plot : plots)
        QVERIFY2(plot->interactions().testFlag(QCP::iRangeZoom), qPrintable(plot->objectName()));
}

// "1 kernel", "3 kernels": a slide reads the tick under each bar.
void ChartInteractionTest::barsCountKernelsInWords() {
    model::Recording recording;
    for (const int kernels : {1, 3}) {
        model::VariantResult run;
        run.pipeline = "mlp";
        run.variant = "v" + std::to_string(kernels);
        run.passesCounted = false;
        run.timeMs = kernels;
        run.kernels.resize(kernels);
        recording.runs.push_back(run);
    }
    TimePerVariantChart chart;
    chart.setRecording(recording);
    chart.rebuildNow();
    const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(chart.xAxis->ticker());
    QVERIFY(ticker);
    const QStringList labels = ticker->ticks().values();
    QVERIFY2(labels.contains(QStringLiteral("v1\n1 kernel")), qPrintable(labels.join('|')));
    QVERIFY2(labels.contains(QStringLiteral("v3\n3 kernels")), qPrintable(labels.join('|')));
}

QTEST_MAIN(ChartInteractionTest)
#include "chart_interaction_test.moc"
