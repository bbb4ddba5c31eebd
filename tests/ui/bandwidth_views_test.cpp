// The bandwidth-over-time chart's views for a classroom: "Kernels only" cuts the idle time between
// kernels out of the axis (with a break where it was cut), a click on a kernel's name zooms to it,
// a double-click returns, and an export draws the view on screen.
#include <QCheckBox>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include "live/kernel_rates.h"
#include "live/live_bandwidth_chart.h"
#include "live/live_recording_feed.h"
#include "model/recording_json.h"
#include "support/shown_window.h"
#include "ui/charts/chart_interaction.h"
#include "ui/charts/log_scale.h"
#include "ui/export/chart_export.h"

using namespace fusescope;
using fusescope::live::LiveBandwidthChart;
using fusescope::live::LiveSample;

namespace {

constexpr qint64 kMs = 1'000'000;
constexpr double kKernelRate = 4000e9;  // bytes per second while a kernel runs
constexpr double kIdleRate = 50e9;

struct Kernel {
    const char* name;
    qint64 startNs;
    qint64 endNs;
};
// Three kernels of 1, 1.5 and 1 ms in a 130 ms run: 3.5 ms of kernel time.
const Kernel kKernels[] = {
    {"gemm_gate", 10 * kMs, 11 * kMs},
    {"silu", 60 * kMs, 61 * kMs + kMs / 2},
    {"gemm_down", 120 * kMs, 121 * kMs},
};
constexpr double kKernelTimeMs = 3.5;
constexpr double kRunMs = 130.0;

// `middleKernelRate`: the second kernel's rate, where a test wants kernels of different speeds.
void feed(LiveBandwidthChart& chart, double middleKernelRate = kKernelRate) {
    chart.setOrigin(0);
    QVector<LiveSample> samples;
    // Samples of 0.1 ms, as a sampler's clock gives them: busy inside the kernels, idle between.
    for (qint64 t = 0; t < qint64(kRunMs) * kMs; t += kMs / 10) {
        double rate = kIdleRate;
        for (const Kernel& kernel : kKernels)
            if (t >= kernel.startNs && t < kernel.endNs)
                rate = &kernel == &kKernels[1] ? middleKernelRate : kKernelRate;
        samples.push_back({t, t + kMs / 10, rate, rate / 2});
    }
    chart.appendSamples(samples);
    for (const Kernel& kernel : kKernels)
        chart.addKernelSpan(QString::fromLatin1(kernel.name), kernel.startNs, kernel.endNs);
}

QCPAxis* timeAxis(LiveBandwidthChart& chart) {
    return chart.plot()->axisRect(0)->axis(QCPAxis::atBottom);
}

// The read curve's value axis: the rate in GB/s.
QCPAxis* rateAxis(LiveBandwidthChart& chart) {
    return chart.plot()->graph(0)->valueAxis();
}

// The chart's title line.
QString titleText(LiveBandwidthChart& chart) {
    for (QCPLayoutElement* element : chart.plot()->plotLayout()->elements(true))
        if (auto* text = qobject_cast<QCPTextElement*>(element);
            text && text->text().startsWith(QStringLiteral("DRAM bandwidth")))
            return text->text();
    return {};
}

QCPAxis* labelledTimeAxis(LiveBandwidthChart& chart) {
    return chart.plot()->axisRect(1)->axis(QCPAxis::atBottom);
}

// The read curve's values (the most rate of each bin).
QList<double> readValues(LiveBandwidthChart& chart) {
    QList<double> values;
    const auto data = chart.plot()->graph(0)->data();
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) values << it->value;
    return values;
}

// The centre of the kernel name `name` in the lane, in plot pixels; (-1, -1) when not shown.
QPoint labelCentre(LiveBandwidthChart& chart, const QString& name) {
    for (int i = 0; i < chart.plot()->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(chart.plot()->item(i));
            text && text->visible() && text->text() == name)
            return QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())
                .normalized()
                .center()
                .toPoint();
    return {-1, -1};
}

// For a person to look at what the checks saw: FUSESCOPE_LAYOUT_SHOTS=folder.
void keepShot(QWidget& widget, const QString& name) {
    if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
        widget.grab().save(QStringLiteral("%1/%2.png").arg(shots, name));
}

bool near(double a, double b, double tolerance = 1e-6) {
    return std::abs(a - b) <= tolerance;
}

}  // namespace

class BandwidthViewsTest : public QObject {
    Q_OBJECT
  private slots:
    void kernelsOnlyCutsTheIdleTime();
    void aKernelsNameZoomsAndADoubleClickReturns();
    void kernelsOnlyOnTheShippedMlpRecording();
    void logScaleByTheKernelsRatesNotTheIdleGaps();
};

void BandwidthViewsTest::kernelsOnlyCutsTheIdleTime() {
    LiveBandwidthChart chart;
    QVERIFY(testsupport::showAt(chart, QSize(1000, 600)));
    // Nothing to cut yet (a CPU run has no kernel spans): the box is there but off.
    QVERIFY(!chart.findChild<QCheckBox*>(QStringLiteral("kernelsOnly"))->isEnabled());
    feed(chart);
    QTRY_VERIFY(chart.replotCount() > 0);
    QVERIFY(near(timeAxis(chart)->range().upper, kRunMs, 1e-3));
    QVERIFY(readValues(chart).contains(kIdleRate * 1e-9));
    QCOMPARE(chart.breakMarkerCount(), 0);

    auto* box = chart.findChild<QCheckBox*>(QStringLiteral("kernelsOnly"));
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QVERIFY(box->isEnabled());
    QVERIFY(!box->isChecked());
    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
    QVERIFY(chart.kernelsOnly());
    chart.plot()->replot();
    // The axis runs in kernel time: the three kernels back to back, 3.5 ms in all.
    const QCPRange whole = timeAxis(chart)->range();
    QVERIFY2(near(whole.lower, 0.0) && near(whole.upper, kKernelTimeMs, 1e-3),
             qPrintable(QStringLiteral("%1..%2").arg(whole.lower).arg(whole.upper)));
    QVERIFY2(labelledTimeAxis(chart)->label().contains(QStringLiteral("kernel time")),
             qPrintable(labelledTimeAxis(chart)->label()));
    // Two cuts, each marked; no idle sample is drawn, every kernel's peak is.
    QCOMPARE(chart.breakMarkerCount(), 2);
    const QList<double> values = readValues(chart);
    QVERIFY(!values.isEmpty());
    for (double value : values)
        QVERIFY2(near(value, kKernelRate * 1e-9), qPrintable(QString::number(value)));
    QCOMPARE(chart.shownKernelLabels(), 3);
    keepShot(chart, QStringLiteral("bandwidth-kernels-only"));
    // The second kernel starts where the first ends; a click there seeks the samples' clock to it.
    QVERIFY(near(chart.axisMsAt(kKernels[1].startNs), 1.0));
    QCOMPARE(chart.clockNsAtAxisMs(1.5), kKernels[1].startNs + kMs / 2);
    const double pixel = timeAxis(chart)->coordToPixel(1.5);
    const qint64 clicked = chart.clockNsAtPixel(pixel);
    const double msPerPixel =
        timeAxis(chart)->pixelToCoord(pixel + 1) - timeAxis(chart)->pixelToCoord(pixel);
    QVERIFY2(std::abs(clicked - (kKernels[1].startNs + kMs / 2)) <= msPerPixel * kMs,
             qPrintable(QString::number(clicked)));

    // Off again: the whole run with its idle time, and no breaks.
    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
    QVERIFY(!chart.kernelsOnly());
    chart.plot()->replot();
    QVERIFY(near(timeAxis(chart)->range().upper, kRunMs, 1e-3));
    QCOMPARE(chart.breakMarkerCount(), 0);
    QVERIFY(!labelledTimeAxis(chart)->label().contains(QStringLiteral("kernel")));
    QVERIFY(readValues(chart).contains(kIdleRate * 1e-9));
}

void BandwidthViewsTest::aKernelsNameZoomsAndADoubleClickReturns() {
    LiveBandwidthChart chart;
    QVERIFY(testsupport::showAt(chart, QSize(1000, 600)));
    makeChartInteractive(chart.plot());  // as the window does for every chart
    feed(chart);
    QTRY_VERIFY(chart.replotCount() > 0);
    chart.setKernelsOnly(true);
    chart.plot()->replot();
    const QCPRange whole = timeAxis(chart)->range();

    const QPoint silu = labelCentre(chart, QStringLiteral("silu"));
    QVERIFY(silu.x() >= 0);
    QTest::mouseClick(chart.plot(), Qt::LeftButton, {}, silu);
    chart.plot()->replot();
    const QCPRange zoomed = timeAxis(chart)->range();
    keepShot(chart, QStringLiteral("bandwidth-kernels-only-zoomed"));
    // The kernel (1.0 to 2.5 ms of kernel time) with a little room either side.
    QVERIFY2(zoomed.lower < 1.0 && zoomed.lower > 0.5 && zoomed.upper > 2.5 && zoomed.upper < 3.0,
             qPrintable(QStringLiteral("%1..%2").arg(zoomed.lower).arg(zoomed.upper)));

    // An export draws what is on screen: the zoomed kernel-time axis, and the view stays.
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString svg = directory.filePath(QStringLiteral("bandwidth.svg"));
    QCOMPARE(exportChart(*chart.plot(), svg, *findExportPreset(QStringLiteral("slide"))),
             QString());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray drawn = file.readAll();
    QVERIFY(drawn.contains("kernel time"));
    QVERIFY(drawn.contains("silu"));
    QCOMPARE(timeAxis(chart)->range(), zoomed);
    if (const QString shots = qEnvironmentVariable("FUSESCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
        exportChart(*chart.plot(), shots + QStringLiteral("/bandwidth-zoomed-slide.png"),
                    *findExportPreset(QStringLiteral("slide")));
    // Every preset and format draws from the same view and leaves it as it was.
    for (const ExportPreset& preset : exportPresets())
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString path =
                directory.filePath(QStringLiteral("%1.%2").arg(preset.key, QLatin1String(suffix)));
            QCOMPARE(exportChart(*chart.plot(), path, preset), QString());
            QVERIFY2(QFileInfo(path).size() > 0, qPrintable(path));
            QCOMPARE(timeAxis(chart)->range(), zoomed);
            QVERIFY(chart.kernelsOnly());
        }

    // A double-click returns to the whole run in kernel time.
    const QPoint inCurves = chart.plot()->axisRect(0)->rect().center();
    QTest::mouseDClick(chart.plot(), Qt::LeftButton, {}, inCurves);
    chart.plot()->replot();
    const QCPRange back = timeAxis(chart)->range();
    QVERIFY2(near(back.lower, whole.lower) && near(back.upper, whole.upper),
             qPrintable(QStringLiteral("%1..%2").arg(back.lower).arg(back.upper)));
    QVERIFY(chart.followsSamples());
}

// The shipped MLP classroom recording: four runs whose kernels take a few hundred microseconds
// in a third of a second of sampling. Kernels only, the axis is the kernels' time, merged where
// kernels overlap, with one break per cut.
void BandwidthViewsTest::kernelsOnlyOnTheShippedMlpRecording() {
    const auto loaded = model::loadRecording(
        QStringLiteral(FUSESCOPE_SHIPPED_DIR "/h200-mlp-classroom-bf16.fusescope.json"));
    QVERIFY(loaded.isOk());
    LiveBandwidthChart chart;
    QVERIFY(testsupport::showAt(chart, QSize(1200, 560)));
    QVERIFY(live::showRecording(chart, *loaded));
    QTRY_VERIFY(chart.replotCount() > 0);
    const double wholeMs = timeAxis(chart)->range().upper;
    // The kernels' stretches, as the recording has them (runs may share a clock).
    QVector<QPair<qint64, qint64>> kernels;
    for (const model::VariantResult& run : loaded->runs)
        for (const fusescope::TimelineSpan& span : run.timeline)
            if (span.kind == fusescope::TimelineSpan::Kind::Kernel)
                kernels.push_back({span.startNs, span.endNs});
    QVERIFY(kernels.size() >= 4);
    std::sort(kernels.begin(), kernels.end());
    QVector<QPair<qint64, qint64>> stretches;
    for (const auto& [start, end] : kernels)
        if (!stretches.isEmpty() && start <= stretches.back().second)
            stretches.back().second = std::max(stretches.back().second, end);
        else
            stretches.append({start, end});
    double busyMs = 0.0;
    for (const auto& [start, end] : stretches) busyMs += double(end - start) * 1e-6;

    chart.setKernelsOnly(true);
    chart.plot()->replot();
    qInfo("whole run %.3f ms, kernel time %.3f ms in %lld stretches", wholeMs, busyMs,
          static_cast<long long>(stretches.size()));
    QVERIFY(busyMs < wholeMs / 10);
    QVERIFY2(near(timeAxis(chart)->range().upper, busyMs, 1e-6),
             qPrintable(QString::number(timeAxis(chart)->range().upper)));
    QCOMPARE(chart.breakMarkerCount(), stretches.size() - 1);
    QVERIFY(chart.shownKernelLabels() > 0);
    QVERIFY(!readValues(chart).isEmpty());
    keepShot(chart, QStringLiteral("bandwidth-mlp-kernels-only"));
}

// The idle samples between kernels read near zero: against them any kernel is a vast spread.
// The rate axis turns logarithmic by the kernels' own rates, more than 30x apart, and follows the
// View menu's choice either way.
void BandwidthViewsTest::logScaleByTheKernelsRatesNotTheIdleGaps() {
    // Kernels at one rate, idle samples 80x lower between them.
    LiveBandwidthChart even;
    QVERIFY(testsupport::showAt(even, QSize(1000, 600)));
    feed(even);
    QTRY_VERIFY(even.replotCount() > 0 && !even.replotPending());
    QVERIFY(kKernelRate / kIdleRate > kLogScaleSpread);
    QCOMPARE(rateAxis(even)->scaleType(), QCPAxis::stLinear);
    QCOMPARE(rateAxis(even)->label(), QStringLiteral("DRAM GB/s"));

    // The middle kernel 100x slower than the other two: logarithmic by itself, and every
    // kernel's plateau (read + written) inside the axis.
    constexpr double kSlowRate = kKernelRate / 100;
    LiveBandwidthChart spread;
    QVERIFY(testsupport::showAt(spread, QSize(1000, 600)));
    feed(spread, kSlowRate);
    QTRY_VERIFY(spread.replotCount() > 0 && !spread.replotPending());
    QCOMPARE(rateAxis(spread)->scaleType(), QCPAxis::stLogarithmic);
    // The axis keeps its short title whole; the chart's title says the scale.
    QCOMPARE(rateAxis(spread)->label(), QStringLiteral("DRAM GB/s"));
    QVERIFY(titleText(spread).endsWith(QStringLiteral("log scale")));
    QVERIFY(!titleText(even).contains(QStringLiteral("log")));
    const QCPRange range = rateAxis(spread)->range();
    QVERIFY2(range.lower < kSlowRate * 1e-9 && range.upper > kKernelRate * 1.5e-9,
             qPrintable(QStringLiteral("%1..%2").arg(range.lower).arg(range.upper)));
    keepShot(spread, QStringLiteral("bandwidth-log-scale"));

    // The toggle: either kind when asked, and back to the spread's choice.
    spread.setValueScale(ValueScale::Linear);
    QTRY_COMPARE(rateAxis(spread)->scaleType(), QCPAxis::stLinear);
    even.setValueScale(ValueScale::Logarithmic);
    QTRY_COMPARE(rateAxis(even)->scaleType(), QCPAxis::stLogarithmic);
    even.setValueScale(ValueScale::Automatic);
    QTRY_COMPARE(rateAxis(even)->scaleType(), QCPAxis::stLinear);

    // The spread itself: each kernel's median, short spikes and idle neighbours left out.
    QVector<LiveSample> samples;
    for (qint64 t = 0; t < 10 * kMs; t += kMs / 10) {
        const bool inside = t >= 2 * kMs && t < 8 * kMs;
        const bool spike = t == 2 * kMs;
        samples.push_back({t, t + kMs / 10,
                           spike    ? 50 * kKernelRate
                           : inside ? kKernelRate
                                    : 0.0,
                           0.0});
    }
    const live::KernelRateSpread one =
        live::kernelRateSpread(samples, {{QStringLiteral("k"), 2 * kMs, 8 * kMs}});
    QCOMPARE(one.smallest, kKernelRate);
    QCOMPARE(one.largest, kKernelRate);
    // A kernel the sampler all but missed (one idle sample inside it) says nothing of a rate.
    const live::KernelRateSpread missed =
        live::kernelRateSpread(samples, {{QStringLiteral("k"), 2 * kMs, 8 * kMs},
                                         {QStringLiteral("short"), 2 * kMs, 2 * kMs + kMs / 10}});
    QCOMPARE(missed.largest, kKernelRate);
}

QTEST_MAIN(BandwidthViewsTest)
#include "bandwidth_views_test.moc"
