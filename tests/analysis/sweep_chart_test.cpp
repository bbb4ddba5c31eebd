// The sweep chart, offscreen: fed synthetic points from a known model, it draws every series,
// the fit, the L2 line, the regimes and the badge, and exports a PNG.
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <utility>

#include "analysis/sweep.h"
#include "model/sweep_chart_conversion.h"
#include "ui/charts/plot_font_follow.h"
#include "ui/charts/plot_text_fit.h"
#include "ui/sweep/sweep_chart.h"

using namespace fusescope;

namespace {

constexpr double kOverheadUs = 3.0;
constexpr double kBandwidthGBps = 3000.0;
constexpr double kL2Bytes = 60.0 * 1024 * 1024;

SweepChartSeries syntheticSeries(const QString& name, int launches, double bytesPerElement) {
    SweepChartSeries series;
    series.name = name;
    series.launches = launches;
    series.bytesPerElement = bytesPerElement;
    series.fit =
        SweepChartFit{kOverheadUs, kBandwidthGBps, false,
                      launches * kOverheadUs * 1e-6 * kBandwidthGBps * 1e9 / bytesPerElement};
    for (int log2n = 12; log2n <= 28; ++log2n) {
        const double n = std::ldexp(1.0, log2n);
        const double timeMs = series.fittedTimeMs(n);
        series.points.append({n, timeMs, n * bytesPerElement / (timeMs * 1e6), 3900.0});
    }
    return series;
}

SweepChartData syntheticData() {
    SweepChartData data;
    data.title = QStringLiteral("Size sweep: SwiGLU activation");
    data.caption = QStringLiteral("synthetic · float32 · vector 4");
    data.dataSource = QStringLiteral("timing + model");
    data.l2CacheBytes = kL2Bytes;
    data.series = {syntheticSeries(QStringLiteral("fused"), 1, 12.0),
                   syntheticSeries(QStringLiteral("two_launch"), 2, 20.0)};
    return data;
}

int distinctColors(const QImage& image) {
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colors.insert(image.pixel(x, y));
    return colors.size();
}

}  // namespace

class SweepChartTest : public QObject {
    Q_OBJECT
  private slots:
    void drawsEverySeriesWithItsFitAndExportsPng();
    void fittedCurveFollowsTheModel();
    void seriesWithoutFitSaysWhy();
    void emptyChartSaysSoAndStillHasABadge();
    void l2OutsideTheRangeIsNotDrawn();
    void showsARealCpuSweep();
    void theSizeAxisNamesTheSweptDimension();
    void sizesUnderSixtyFourKAreWrittenInFull();
    void aNarrowSizeAxisTakesASecondLineRatherThanCuttingTheSuffixes();
    void aShortBandwidthAxisPutsItsUnitOnASecondLineRatherThanEliding();
    void theL2LineMarksOneArrayOnlyWhereEveryBufferIsOne();
    void readsASweepFile();
    void rejectsFilesThatAreNotSweeps_data();
    void rejectsFilesThatAreNotSweeps();
    void chartsWhatTheCliWrites();
    void theCaptionFollowsAFontChangeMadeWhileItWasHidden();
};

void SweepChartTest::drawsEverySeriesWithItsFitAndExportsPng() {
    SweepChart chart;
    chart.resize(1200, 900);
    chart.setData(syntheticData());

    // Per series: measured time, measured GB/s, fitted time, fitted GB/s; plus the roofline.
    QCOMPARE(chart.graphCount(), 2 * 4 + 1);
    QCOMPARE(chart.shownL2N(), kL2Bytes / 4);
    QCOMPARE(chart.shownRegimeBoundaryN(), kOverheadUs * 1e-6 * kBandwidthGBps * 1e9 / 12.0);
    QCOMPARE(chart.badgeText(), QStringLiteral("data: timing + model"));
    QVERIFY2(chart.fitText().contains(QStringLiteral("fused (1 launch): 3.00 µs per launch")),
             qPrintable(chart.fitText()));
    QVERIFY(chart.fitText().contains(QStringLiteral("two_launch (2 launches)")));
    QVERIFY(chart.fitText().contains(QStringLiteral("3,000.0 GB/s")));
    const QCPRange x = chart.timeRect()->axis(QCPAxis::atBottom)->range();
    QVERIFY(x.lower < 4096 && x.upper > std::ldexp(1.0, 28));
    QCOMPARE(chart.bandwidthRect()->axis(QCPAxis::atBottom)->range(), x);

    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("sweep.png"));
    QCOMPARE(chart.exportPng(path, 1200, 900), QString());
    QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1200, 900));
    QVERIFY2(distinctColors(image) > 20, "the exported chart looks blank");
    if (!qEnvironmentVariableIsEmpty("FUSESCOPE_SWEEP_CHART_PNG"))
        QVERIFY(chart.savePng(qEnvironmentVariable("FUSESCOPE_SWEEP_CHART_PNG"), 1200, 900));
    QVERIFY(
        !chart.exportPng(directory.filePath(QStringLiteral("missing/dir/sweep.png"))).isEmpty());
}

void SweepChartTest::fittedCurveFollowsTheModel() {
    SweepChart chart;
    chart.setData(syntheticData());
    // Graph order per series: measured time, measured GB/s, fitted time, fitted GB/s.
    QCPGraph* fittedTime = chart.graph(2);
    QCOMPARE(fittedTime->valueAxis(), chart.timeRect()->axis(QCPAxis::atLeft));
    const auto first = fittedTime->data()->constBegin();
    const auto last = fittedTime->data()->constEnd() - 1;
    QCOMPARE(first->key, 4096.0);
    QVERIFY(std::abs(first->value - (kOverheadUs + 4096 * 12.0 / (kBandwidthGBps * 1e3))) < 1e-9);
    QVERIFY(std::abs(last->key - std::ldexp(1.0, 28)) < 1.0);
    const double largeTimeUs = kOverheadUs + last->key * 12.0 / (kBandwidthGBps * 1e3);
    QVERIFY(std::abs(last->value - largeTimeUs) < 1e-6 * largeTimeUs);
}

void SweepChartTest::seriesWithoutFitSaysWhy() {
    SweepChartData data = syntheticData();
    data.series[1].fit.reset();
    data.series[1].fitError = QStringLiteral("the fit needs at least two sizes, got 1");
    SweepChart chart;
    chart.setData(data);
    QCOMPARE(chart.graphCount(), 4 + 2 + 1);
    QVERIFY(chart.fitText().contains(
        QStringLiteral("two_launch (2 launches): no fit: the fit needs at least two sizes")));
}

void SweepChartTest::emptyChartSaysSoAndStillHasABadge() {
    SweepChart chart;
    SweepChartData data;
    data.dataSource = QStringLiteral("CPU backend");
    chart.setData(data);
    QCOMPARE(chart.graphCount(), 0);
    QCOMPARE(chart.shownRegimeBoundaryN(), 0.0);
    QCOMPARE(chart.shownL2N(), 0.0);
    QCOMPARE(chart.badgeText(), QStringLiteral("data: CPU backend"));
    QVERIFY(!chart.legend->visible());
    // One message instead of axes that frame nothing.
    QVERIFY(!chart.emptyMessage().isEmpty());
    QVERIFY(!chart.timeRect()->realVisibility());
    QVERIFY(!chart.bandwidthRect()->realVisibility());
    // Before any sweep there is no source to name.
    chart.setData({});
    QVERIFY(chart.badgeText().isEmpty());
    QVERIFY(chart.emptyMessage().startsWith(QStringLiteral("No sweep yet")));
    chart.setData(syntheticData());
    QVERIFY(chart.emptyMessage().isEmpty());
    QVERIFY(chart.timeRect()->realVisibility());
}

void SweepChartTest::l2OutsideTheRangeIsNotDrawn() {
    SweepChartData data = syntheticData();
    data.l2CacheBytes = 64.0 * 1024 * 1024 * 1024;
    SweepChart chart;
    chart.setData(data);
    QCOMPARE(chart.shownL2N(), 0.0);
}

// From the engine's report: a real (small) CPU sweep converts and draws.
void SweepChartTest::showsARealCpuSweep() {
    auto backend = createCpuBackend(2);
    SweepRequest request;
    request.pipeline = "swiglu";
    request.variants = {"scratch", "fused"};
    request.from = 4096;
    request.to = 65536;
    request.settings.repeats = 3;
    request.settings.warmup = 1;
    RunObserver observer;
    Result<SweepReport> report = runSweep(*backend, request, observer);
    QVERIFY2(report.isOk(), report.status().message().c_str());
    const SweepChartData data = model::sweepChartData(*report);
    QCOMPARE(data.series.size(), 2);
    QCOMPARE(data.series[0].name, QStringLiteral("scratch"));
    QCOMPARE(data.series[0].points.size(), 5);
    QCOMPARE(data.series[1].bytesPerElement, 12.0);
    QCOMPARE(data.dataSource, QStringLiteral("CPU backend"));
    QVERIFY(data.title.contains(QStringLiteral("SwiGLU")));
    SweepChart chart;
    chart.setData(data);
    QVERIFY(chart.graphCount() >= 2 * 2 + 1);
    QTemporaryDir directory;
    QCOMPARE(chart.exportPng(directory.filePath(QStringLiteral("cpu.png"))), QString());
}

namespace {

// A sweep of `pipeline`'s first variant over the sizes 64, 256 and 1024, on a device whose L2
// holds `l2CacheBytes` (0: unknown).
SweepReport threeSizeSweep(const PipelineSpec& pipeline, std::uint64_t l2CacheBytes) {
    SweepReport report;
    report.pipeline = pipeline.name;
    report.device.l2CacheBytes = l2CacheBytes;
    SweepSeries series;
    series.variant = pipeline.variants.front().name;
    series.launches = 1;
    for (std::uint64_t size : {64, 256, 1024})
        series.points.push_back({size, size * 4, 1, 0.01, true, 0.0, 0.0});
    report.series = {series};
    return report;
}

}  // namespace

// The x axis names the dimension the pipeline's sweeps vary, as the registry names it: the MLP's
// sweeps vary M (tokens), the elementwise chains' N (elements).
void SweepChartTest::theSizeAxisNamesTheSweptDimension() {
    for (const char* name : {"mlp", "swiglu"}) {
        const PipelineSpec* pipeline = findPipeline(name);
        QVERIFY(pipeline);
        const DimensionSpec* swept = pipeline->findDimension(pipeline->sizeDimension);
        QVERIFY(swept);
        SweepChart chart;
        chart.setData(model::sweepChartData(threeSizeSweep(*pipeline, 0)));
        const QString label = chart.bandwidthRect()->axis(QCPAxis::atBottom)->label();
        const QString expected =
            QString::fromStdString(pipeline->sizeDimension + ": " + swept->title);
        QVERIFY2(label.startsWith(expected), qPrintable(label + QStringLiteral(" for ") + name));
    }
    QVERIFY(findPipeline("mlp")->sizeDimension == "M");
}

// An MLP sweep's M of 4096 tokens reads "4096", and no note of binary suffixes names "M = 2^20"
// beside the dimension M; a sweep to 16M elements names the suffixes its ticks use.
void SweepChartTest::sizesUnderSixtyFourKAreWrittenInFull() {
    const PipelineSpec* pipeline = findPipeline("swiglu");
    QVERIFY(pipeline);
    SweepChart chart;
    chart.resize(800, 600);
    chart.setData(model::sweepChartData(threeSizeSweep(*pipeline, 0)));
    chart.replot(QCustomPlot::rpImmediateRefresh);
    QCPAxis* sizes = chart.bandwidthRect()->axis(QCPAxis::atBottom);
    QVERIFY2(!sizes->label().contains(QStringLiteral("2^")), qPrintable(sizes->label()));
    QVERIFY2(sizes->tickVectorLabels().contains(QStringLiteral("1024")),
             qPrintable(sizes->tickVectorLabels().join(QLatin1Char(' '))));

    SweepReport large = threeSizeSweep(*pipeline, 0);
    large.series.front().points.back().n = 1u << 24;
    chart.setData(model::sweepChartData(large));
    chart.replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY2(sizes->label().endsWith(QStringLiteral("K = 2^10, M = 2^20")),
             qPrintable(sizes->label()));
    QVERIFY2(sizes->tickVectorLabels().contains(QStringLiteral("1M")),
             qPrintable(sizes->tickVectorLabels().join(QLatin1Char(' '))));
}

// At 1280x720 the chart beside the sweep's form and points is at its least width: the size axis's
// label went "N: elements per array · K = 2^10, M = 2…". Its parts now take two lines.
void SweepChartTest::aNarrowSizeAxisTakesASecondLineRatherThanCuttingTheSuffixes() {
    const PipelineSpec* pipeline = findPipeline("swiglu");
    QVERIFY(pipeline);
    SweepReport large = threeSizeSweep(*pipeline, 0);
    large.series.front().points.back().n = 1u << 24;
    SweepChart chart;
    fusescope::fitPlotTextAlways(&chart);  // as the window fits its charts
    chart.resize(chart.minimumWidth(), 500);
    chart.setData(model::sweepChartData(large));
    chart.show();  // the plot takes its size from its resize event
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    // The fitter works on the axes' last layout: the first replot lays them out.
    chart.replot(QCustomPlot::rpImmediateRefresh);
    chart.replot(QCustomPlot::rpImmediateRefresh);
    const QString label = chart.bandwidthRect()->axis(QCPAxis::atBottom)->label();
    QVERIFY2(!label.contains(QChar(0x2026)), qPrintable(label));
    QVERIFY2(label.contains(QLatin1Char('\n')), qPrintable(label));
    QVERIFY2(label.endsWith(QStringLiteral("K = 2^10, M = 2^20")), qPrintable(label));
}

// In the presentation layout at 1280x720 the bandwidth axis's title read "model byte... (GB/s)".
// Where the whole title is longer than the axis, its unit takes a second line.
void SweepChartTest::aShortBandwidthAxisPutsItsUnitOnASecondLineRatherThanEliding() {
    const PipelineSpec* pipeline = findPipeline("swiglu");
    QVERIFY(pipeline);
    SweepChart chart;
    fusescope::fitPlotTextAlways(&chart);  // as the window fits its charts
    chart.resize(chart.minimumWidth(), 460);
    chart.setData(model::sweepChartData(threeSizeSweep(*pipeline, 0)));
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.replot(QCustomPlot::rpImmediateRefresh);
    chart.replot(QCustomPlot::rpImmediateRefresh);
    QCPAxis* axis = chart.bandwidthRect()->axis(QCPAxis::atLeft);
    const QString whole = QStringLiteral("model bytes / time (GB/s)");
    // The case this is about: the title on one line is longer than the axis.
    QVERIFY2(QFontMetricsF(axis->labelFont()).horizontalAdvance(whole) >
                 chart.bandwidthRect()->rect().height(),
             qPrintable(QString::number(chart.bandwidthRect()->rect().height())));
    QCOMPARE(axis->label(), QStringLiteral("model bytes / time\n(GB/s)"));
}

// SwiGLU's arrays each hold N elements, so an L2 of 1 KiB holds one array of N = 256. The MLP's
// weights do not grow with M: "one array of M elements" would mean nothing, and no line is drawn.
void SweepChartTest::theL2LineMarksOneArrayOnlyWhereEveryBufferIsOne() {
    for (const auto& [name, expectedL2N] : {std::pair{"swiglu", 256.0}, std::pair{"mlp", 0.0}}) {
        const PipelineSpec* pipeline = findPipeline(name);
        QVERIFY(pipeline);
        SweepChart chart;
        chart.setData(model::sweepChartData(threeSizeSweep(*pipeline, 1024)));
        QCOMPARE(chart.shownL2N(), expectedL2N);
    }
}

namespace {

// A small but complete sweep file, as `fusescope-cli sweep --json` writes it.
// A sweep file as the chart draws it.
Result<SweepChartData> chartOf(const Result<model::SweepFile>& file) {
    if (!file) return file.status();
    return model::sweepChartData(*file);
}

QJsonObject sweepFile() {
    QJsonArray points;
    for (double n : {4096.0, 65536.0, 1048576.0})
        points.append(QJsonObject{{"n", n},
                                  {"bytes", 12 * n},
                                  {"time_ms", 0.003 + 12 * n / 3e9},
                                  {"gbps", 12 * n / ((0.003 + 12 * n / 3e9) * 1e6)},
                                  {"roofline_gbps", 3500.0},
                                  {"check_ok", true},
                                  {"max_rel_error", 1e-7},
                                  {"regime", "launch"}});
    const QJsonObject fit{
        {"overhead_us", 3.0},     {"bandwidth_gbps", 3000.0},     {"overhead_clamped", false},
        {"boundary_n", 750000.0}, {"rms_relative_residual", 0.0}, {"samples", 3},
        {"set_aside", 2}};
    const QJsonObject withFit{{"variant", "fused"},        {"title", "Fused"}, {"launches", 1},
                              {"bytes_per_element", 12.0}, {"points", points}, {"fit", fit}};
    const QJsonObject withoutFit{
        {"variant", "scratch"},      {"launches", 1},
        {"bytes_per_element", 20.0}, {"points", QJsonArray{points.first()}},
        {"fit", QJsonValue::Null},   {"fit_error", "the fit needs at least two sizes, got 1"}};
    return {{"format", "fusescope-sweep"},
            {"version", 1},
            {"pipeline", "swiglu"},
            {"vector", 4},
            {"repeats", 20},
            {"data_source", "timing+model"},
            {"device", QJsonObject{{"name", "NVIDIA H200"}, {"l2_cache_bytes", 62914560.0}}},
            {"sizes", QJsonArray{4096, 65536, 1048576}},
            {"series", QJsonArray{withFit, withoutFit}}};
}

QByteArray bytesOf(const QJsonObject& object) {
    return QJsonDocument(object).toJson();
}

}  // namespace

void SweepChartTest::readsASweepFile() {
    Result<SweepChartData> data = chartOf(model::parseSweepFile(bytesOf(sweepFile())));
    QVERIFY2(data.isOk(), data.status().message().c_str());
    QCOMPARE(data->title, QStringLiteral("Size sweep: SwiGLU activation"));
    QCOMPARE(data->dataSource, QStringLiteral("timing + model, replayed"));
    QVERIFY(data->caption.startsWith(QStringLiteral("NVIDIA H200")));
    QCOMPARE(data->l2CacheBytes, 62914560.0);
    QCOMPARE(data->series.size(), 2);
    QCOMPARE(data->series[0].points.size(), 3);
    QCOMPARE(data->series[0].points[1].n, 65536.0);
    QVERIFY(data->series[0].fit.has_value());
    QCOMPARE(data->series[0].fit->overheadUs, 3.0);
    QVERIFY(!data->series[1].fit.has_value());
    QVERIFY(data->series[1].fitError.contains(QStringLiteral("two sizes")));
    SweepChart chart;
    chart.setData(*data);
    QCOMPARE(chart.badgeText(), QStringLiteral("data: timing + model, replayed"));
    QVERIFY2(chart.fitText().contains(QStringLiteral("(2 of the sizes set aside)")),
             qPrintable(chart.fitText()));
}

void SweepChartTest::rejectsFilesThatAreNotSweeps_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("words");
    QJsonObject file = sweepFile();
    file["format"] = "fusescope-recording";
    QTest::newRow("a recording") << bytesOf(file) << "not a FuseScope sweep file";
    file = sweepFile();
    file["version"] = 2;
    QTest::newRow("a newer version") << bytesOf(file) << "version 2";
    file = sweepFile();
    QJsonArray series = file["series"].toArray();
    QJsonObject first = series[0].toObject();
    QJsonArray points = first["points"].toArray();
    QJsonObject point = points[1].toObject();
    point.remove("time_ms");
    points[1] = point;
    first["points"] = points;
    series[0] = first;
    file["series"] = series;
    QTest::newRow("a missing time") << bytesOf(file) << "series[0].points[1].time_ms";
    file = sweepFile();
    file["data_source"] = "guesswork";
    QTest::newRow("an unknown source") << bytesOf(file) << "guesswork";
    QTest::newRow("not JSON") << QByteArray("{\"format\": ") << "not valid JSON";
    QTest::newRow("an array") << QByteArray("[1, 2]") << "no JSON object";
}

void SweepChartTest::rejectsFilesThatAreNotSweeps() {
    QFETCH(QByteArray, json);
    QFETCH(QString, words);
    Result<SweepChartData> data = chartOf(model::parseSweepFile(json));
    QVERIFY(!data.isOk());
    const QString message = QString::fromStdString(data.status().message());
    QVERIFY2(message.contains(words), qPrintable(message));
    QVERIFY(!message.contains(QLatin1Char('\n')));
}

// The CLI's file, read back and charted: the two ends of the format agree.
void SweepChartTest::chartsWhatTheCliWrites() {
#ifndef FUSESCOPE_CLI_PATH
    QSKIP("fusescope-cli is not built in this tree");
#else
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("sweep.json"));
    QProcess cli;
    cli.start(QStringLiteral(FUSESCOPE_CLI_PATH),
              {"sweep", "--pipeline", "affine", "--from", "4096", "--to", "32768", "--repeat", "3",
               "--warmup", "1", "--backend", "cpu", "--json", path});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    Result<SweepChartData> data = chartOf(model::loadSweepFile(path));
    QVERIFY2(data.isOk(), data.status().message().c_str());
    QCOMPARE(data->series.size(), 2);  // affine: unfused and fused
    QCOMPARE(data->series[0].points.size(), 4);
    QCOMPARE(data->series[0].points.back().n, 32768.0);
    QCOMPARE(data->dataSource, QStringLiteral("CPU backend, replayed"));
    SweepChart chart;
    chart.setData(*data);
    QCOMPARE(chart.exportPng(directory.filePath(QStringLiteral("sweep.png"))), QString());
    QVERIFY(!model::loadSweepFile(directory.filePath(QStringLiteral("missing.json"))).isOk());
#endif
}

// Compared sweeps leave the caption out of the layout; a font change meanwhile (the zoom, the
// presentation layout) must still reach it, or it comes back at the old size.
void SweepChartTest::theCaptionFollowsAFontChangeMadeWhileItWasHidden() {
    SweepChart chart;
    followWidgetFont(&chart);  // as the window does for every chart
    chart.resize(1200, 900);
    chart.setData(syntheticData());
    const double captionToChart =
        chart.captionElement()->font().pointSizeF() / chart.font().pointSizeF();

    SweepChartData compared = syntheticData();
    compared.recordings = {{QStringLiteral("A: one machine"), kL2Bytes},
                           {QStringLiteral("B: another"), kL2Bytes}};
    chart.setData(compared);
    QVERIFY(chart.captionElement()->layout() == nullptr);
    QFont larger = chart.font();
    larger.setPointSizeF(larger.pointSizeF() * 2);
    chart.setFont(larger);

    chart.setData(syntheticData());
    QVERIFY(chart.captionElement()->layout() != nullptr);
    const double expected = captionToChart * larger.pointSizeF();
    QVERIFY2(std::abs(chart.captionElement()->font().pointSizeF() - expected) < 0.05 * expected,
             qPrintable(QStringLiteral("caption %1 pt, expected %2 pt")
                            .arg(chart.captionElement()->font().pointSizeF())
                            .arg(expected)));
}

QTEST_MAIN(SweepChartTest)
#include "sweep_chart_test.moc"
