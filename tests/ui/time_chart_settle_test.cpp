// The time chart lays itself out in one replot: a second replot at the same size draws every
// text where the first did, whatever the measured times (which set the value axis's labels, and
// through their width the room the variants' names have, lying down or standing on end), and a
// chart resized away and back draws what it drew before. Small charts (three side by side on a
// small screen) are where the names stand, are thinned and move the margins.
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "layout_checks.h"
#include "model/qt_text.h"
#include "support/shown_window.h"
#include "ui/charts/charts.h"
#include "ui/charts/plot_text_fit.h"
#include "ui/window/main_window.h"

using namespace fusescope;

namespace {

// A CPU-like run of the three SwiGLU variants, taking `timeMs` (the others about as long), with
// a copy roofline of `rooflineMs` for their bytes (none where 0).
model::Recording swigluRecording(double timeMs, double rooflineMs) {
    model::Recording recording;
    constexpr quint64 kBytes = 4096 * 4 * 3;
    recording.roofline.timeMs = rooflineMs > 0 ? rooflineMs : 1.0;
    recording.roofline.bytesMoved = rooflineMs > 0 ? kBytes : 0;
    const QStringList variants{"scratch", "two_launch", "fused"};
    const QList<double> shares{1.0, 1.09, 0.92};
    for (int i = 0; i < variants.size(); ++i) {
        model::VariantResult run;
        run.pipeline = "swiglu";
        run.variant = variants[i].toStdString();
        run.passesCounted = true;
        run.passes = 5 - i;
        run.kernels.resize(1);
        run.timeMs = timeMs * shares[i];
        run.modelBytesRead = kBytes * 2 / 3;
        run.modelBytesWritten = kBytes / 3;
        recording.runs.push_back(run);
    }
    return recording;
}

// The first text that differs between two drawings; empty when they are the same.
QString firstDifference(const std::vector<testing::PlacedText>& first,
                        const std::vector<testing::PlacedText>& second) {
    for (std::size_t i = 0; i < first.size(); ++i)
        if (i >= second.size() || first[i].what != second[i].what ||
            first[i].rect != second[i].rect)
            return QStringLiteral("%1 %2, then %3 %4")
                .arg(first[i].what, testing::describe(first[i].rect),
                     i < second.size() ? second[i].what : QString(),
                     i < second.size() ? testing::describe(second[i].rect) : QString());
    if (second.size() > first.size())
        return QStringLiteral("then also %1").arg(second[first.size()].what);
    return {};
}

std::vector<testing::PlacedText> replotted(QCustomPlot& plot) {
    plot.replot(QCustomPlot::rpImmediateRefresh);
    return testing::plotTexts(plot);
}

}  // namespace

class TimeChartSettleTest : public QObject {
    Q_OBJECT
  private slots:
    void settlesInOneReplotAtAnySize();
    void variantNamesStandOverTheirBytesOnALogAxis();
};

void TimeChartSettleTest::settlesInOneReplotAtAnySize() {
    // A child widget: its resize reaches the plot at once (a window's waits for the platform).
    QWidget window;
    window.resize(800, 600);
    auto* chart = new TimePerVariantChart(&window);
    fitPlotTextAlways(chart);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    int layouts = 0;
    QStringList late;
    QStringList unreadable;
    // Times of a few microseconds (a small CPU run) up to a third of a millisecond, with the
    // roofline below the bars, above them (the footnote then takes a line) or absent.
    for (const double timeMs : {0.002, 0.02, 0.3})
        for (const double roofline : {0.0, 2.5}) {
            chart->resize(300, 300);
            chart->setRecording(swigluRecording(timeMs, timeMs * roofline));
            chart->rebuildNow();
            for (int width = 200; width <= 260; width += 4)
                for (int height = 230; height <= 290; height += 10) {
                    chart->resize(width, height);
                    QCOMPARE(chart->viewport().size(), QSize(width, height));
                    ++layouts;
                    const std::vector<testing::PlacedText> first = replotted(*chart);
                    // What settles is readable too: no name standing on another.
                    for (const QString& problem : testing::plotProblems(*chart))
                        unreadable << QStringLiteral("%1x%2, %3 ms: %4")
                                          .arg(width)
                                          .arg(height)
                                          .arg(timeMs)
                                          .arg(problem.simplified());
                    QString moved = firstDifference(first, replotted(*chart));
                    // Away to another size and back: the same drawing again.
                    if (moved.isEmpty()) {
                        chart->resize(width + 41, height + 29);
                        replotted(*chart);
                        chart->resize(width, height);
                        moved = firstDifference(first, replotted(*chart));
                    }
                    if (!moved.isEmpty())
                        late << QStringLiteral("%1x%2, %3 ms, roofline %4x: %5")
                                    .arg(width)
                                    .arg(height)
                                    .arg(timeMs)
                                    .arg(roofline)
                                    .arg(moved.simplified());
                }
        }
    qInfo("%lld of %d layouts moved on a later replot", static_cast<long long>(late.size()),
          layouts);
    for (const QString& each : late.mid(0, 5)) qInfo("%s", qPrintable(each));
    for (const QString& each : unreadable.mid(0, 5)) qInfo("%s", qPrintable(each));
    QVERIFY(layouts > 500);
    QVERIFY2(unreadable.isEmpty(), qPrintable(unreadable.value(0)));
    QVERIFY2(late.isEmpty(), qPrintable(late.value(0)));
}

// The bytes chart's axis is logarithmic, so the fitter cannot make room above the tallest bars by
// adding bytes: the shipped decode-1 recording in a 1280×720 window showed "unfused" alone, the
// three other names hidden for want of room. It now stretches the axis's decades, and every
// variant's name stands over its bars, clear of them and of the chart's other texts, with no
// tick in the room made for them.
void TimeChartSettleTest::variantNamesStandOverTheirBytesOnALogAxis() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QSettings settings(folder.filePath(QStringLiteral("window.ini")), QSettings::IniFormat);
    MainWindow window(&settings);
    QVERIFY(testsupport::showAt(window, QSize(1280, 720)));
    QCOMPARE(window.openRecording(
                 QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-decode-1-bf16.fusescope.json")),
             QString());
    BytesPerKernelChart* chart = nullptr;
    for (ChartView* each : window.charts())
        if (auto* bytes = qobject_cast<BytesPerKernelChart*>(each)) chart = bytes;
    QVERIFY(chart);
    QTest::qWait(50);  // the chart's queued rebuild
    testsupport::settleLayouts();
    replotted(*chart);
    QStringList shown;
    for (int i = 0; i < chart->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(chart->item(i)); text && text->visible())
            shown << text->text();
    QStringList problems;
    for (const model::VariantResult& run : window.recording().runs)
        if (!shown.contains(model::toQString(run.variant)))
            problems << QStringLiteral("'%1' is hidden").arg(model::toQString(run.variant));
    problems << testing::plotProblems(*chart);
    // The room made for the names carries no decade above the data: no "10^8 GB" over 15 GB.
    double largestGB = 0.0;
    for (const model::VariantResult& run : window.recording().runs)
        for (const KernelResult& kernel : run.kernels)
            largestGB =
                std::max(largestGB, double(kernel.modelBytesRead + kernel.modelBytesWritten) / 1e9);
    QVERIFY(chart->yAxis->label().contains(QLatin1String("GB")));
    for (const double tick : chart->yAxis->tickVector())
        if (tick > largestGB * 10)
            problems
                << QStringLiteral("a tick at %1 GB over %2 GB of data").arg(tick).arg(largestGB);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TimeChartSettleTest)
#include "time_chart_settle_test.moc"
