#include "model/sweep_comparison.h"

#include <QObject>
#include <algorithm>
#include <map>

#include "model/recording.h"
#include "model/recording_description.h"
#include "model/sweep_chart_conversion.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

std::optional<double> ratio(const std::optional<double>& a, const std::optional<double>& b) {
    if (!a || !b || !(*a > 0.0)) return std::nullopt;
    return *b / *a;
}

struct MeasuredPoint {
    double timeMs = 0.0;
    double gbps = 0.0;
};

// The points of one variant by N (the first where an N repeats).
std::map<double, MeasuredPoint> pointsByN(const SweepSeries& series) {
    std::map<double, MeasuredPoint> points;
    for (const SweepPoint& point : series.points)
        points.emplace(static_cast<double>(point.n),
                       MeasuredPoint{point.timeMs, point.effectiveGBps()});
    return points;
}

const SweepSeries* findSeries(const SweepReport& report, const std::string& variant) {
    for (const SweepSeries& series : report.series)
        if (series.variant == variant) return &series;
    return nullptr;
}

QVector<double> sortedSizes(const SweepReport& report) {
    QVector<double> sizes;
    for (std::uint64_t n : report.sizes) sizes << static_cast<double>(n);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

QString pipelineName(const SweepReport& report) {
    const PipelineSpec* pipeline = findPipeline(report.pipeline);
    return QString::fromStdString(pipeline ? pipeline->title : report.pipeline);
}

QString sweepSettings(const SweepFile& sweep) {
    return QObject::tr("vector %1, median of %2")
        .arg(sweep.report.vectorWidth)
        .arg(sweep.report.repeats);
}

// "Intel Xeon (CPU), 2026-12-01": short enough for two legend entries side by side on a 1280x720
// screen at 150%; the window's header has the threads too.
QString legendLabel(const SweepFile& sweep) {
    const QString backend = sweep.report.device.backend == BackendKind::Cuda
                                ? QStringLiteral("CUDA")
                                : QStringLiteral("CPU");
    return deviceAndDay(
        QStringLiteral("%1 (%2)").arg(QString::fromStdString(sweep.report.device.name), backend),
        sweep.created);
}

// The chart of both: the variants both swept, A's series then B's, named by recording.
SweepChartData comparisonChart(const SweepFile& a, const SweepFile& b,
                               const SweepComparison& comparison) {
    const SweepChartData chartA = sweepChartData(a);
    const SweepChartData chartB = sweepChartData(b);
    SweepChartData data;
    data.title = QObject::tr("Size sweeps compared: %1").arg(pipelineName(a.report));
    // The settings of each stand in the window's header, by its device: the chart keeps its
    // height for the data.
    data.dataSource = chartA.dataSource == chartB.dataSource
                          ? chartA.dataSource
                          : QObject::tr("A %1, B %2").arg(chartA.dataSource, chartB.dataSource);
    data.elementBytes = chartA.elementBytes;
    data.sizeDimension = chartA.sizeDimension;
    data.sizeTitle = chartA.sizeTitle;
    data.recordings = {{QObject::tr("A: %1").arg(legendLabel(a)), chartA.l2CacheBytes},
                       {QObject::tr("B: %1").arg(legendLabel(b)), chartB.l2CacheBytes}};
    for (int recording = 0; recording < 2; ++recording) {
        const SweepChartData& source = recording == 0 ? chartA : chartB;
        for (const SweepVariantComparison& variant : comparison.variants)
            for (const SweepChartSeries& series : source.series)
                if (series.name == variant.variant) {
                    data.series << series;
                    data.series.back().recording = recording;
                    break;
                }
    }
    return data;
}

}  // namespace

std::optional<double> SweepSizeComparison::timeRatio() const {
    return ratio(timeMsA, timeMsB);
}

std::optional<double> SweepSizeComparison::gbpsRatio() const {
    return ratio(gbpsA, gbpsB);
}

std::optional<double> SweepVariantComparison::fitBandwidthRatio() const {
    if (!fitA || !fitB) return std::nullopt;
    return ratio(fitA->bandwidthGBps, fitB->bandwidthGBps);
}

QString sweepDeviceLabel(const SweepFile& sweep) {
    const DeviceInfo& device = sweep.report.device;
    const QString name = QString::fromStdString(device.name);
    if (device.backend == BackendKind::Cuda) return QObject::tr("%1 (CUDA)").arg(name);
    const QString threads = device.multiprocessors == 1 ? QObject::tr(", 1 thread")
                            : device.multiprocessors > 1
                                ? QObject::tr(", %1 threads").arg(device.multiprocessors)
                                : QString();
    return QObject::tr("%1 (CPU backend%2)").arg(name, threads);
}

Result<SweepComparison> compareSweeps(const SweepFile& a, const SweepFile& b) {
    if (a.report.pipeline != b.report.pipeline)
        return Status(ErrorCode::InvalidArgument,
                      QObject::tr("A is a sweep of %1 and B of %2: Compare puts size sweeps of "
                                  "the same pipeline side by side, where each size is the same "
                                  "work on both.")
                          .arg(QString::fromStdString(a.report.pipeline),
                               QString::fromStdString(b.report.pipeline))
                          .toStdString());
    SweepComparison comparison;
    comparison.pipeline = QString::fromStdString(a.report.pipeline);
    const PipelineSpec* swept = findPipeline(a.report.pipeline);
    comparison.sizeDimension =
        swept ? QString::fromStdString(swept->sizeDimension) : QStringLiteral("size");
    comparison.labelA = deviceAndDay(sweepDeviceLabel(a), a.created);
    comparison.labelB = deviceAndDay(sweepDeviceLabel(b), b.created);
    comparison.settingsA = sweepSettings(a);
    comparison.settingsB = sweepSettings(b);

    const QVector<double> sizesA = sortedSizes(a.report);
    const QVector<double> sizesB = sortedSizes(b.report);
    std::set_intersection(sizesA.begin(), sizesA.end(), sizesB.begin(), sizesB.end(),
                          std::back_inserter(comparison.sharedSizes));
    std::set_difference(sizesA.begin(), sizesA.end(), sizesB.begin(), sizesB.end(),
                        std::back_inserter(comparison.sizesOnlyInA));
    std::set_difference(sizesB.begin(), sizesB.end(), sizesA.begin(), sizesA.end(),
                        std::back_inserter(comparison.sizesOnlyInB));

    for (const SweepSeries& seriesA : a.report.series) {
        const QString name = QString::fromStdString(seriesA.variant);
        const SweepSeries* seriesB = findSeries(b.report, seriesA.variant);
        if (!seriesB) {
            if (!comparison.variantsOnlyInA.contains(name)) comparison.variantsOnlyInA << name;
            continue;
        }
        if (std::any_of(comparison.variants.begin(), comparison.variants.end(),
                        [&](const SweepVariantComparison& seen) { return seen.variant == name; }))
            continue;
        const std::map<double, MeasuredPoint> pointsA = pointsByN(seriesA);
        const std::map<double, MeasuredPoint> pointsB = pointsByN(*seriesB);
        std::map<double, SweepSizeComparison> sizes;
        for (const auto& [n, point] : pointsA) {
            SweepSizeComparison& size = sizes[n];
            size.n = n;
            size.timeMsA = point.timeMs;
            size.gbpsA = point.gbps;
        }
        for (const auto& [n, point] : pointsB) {
            SweepSizeComparison& size = sizes[n];
            size.n = n;
            size.timeMsB = point.timeMs;
            size.gbpsB = point.gbps;
        }
        SweepVariantComparison variant;
        variant.variant = name;
        for (const auto& [n, size] : sizes) variant.sizes << size;
        comparison.variants << variant;
    }
    for (const SweepSeries& seriesB : b.report.series) {
        const QString name = QString::fromStdString(seriesB.variant);
        if (!findSeries(a.report, seriesB.variant) && !comparison.variantsOnlyInB.contains(name))
            comparison.variantsOnlyInB << name;
    }
    comparison.chart = comparisonChart(a, b, comparison);
    for (SweepVariantComparison& variant : comparison.variants)
        for (const SweepChartSeries& series : comparison.chart.series) {
            if (series.name != variant.variant) continue;
            (series.recording == 0 ? variant.fitA : variant.fitB) = series.fit;
            (series.recording == 0 ? variant.fitErrorA : variant.fitErrorB) = series.fitError;
        }
    return comparison;
}

QString compareKindsRefusal(ComparedKind shown, ComparedKind other, const QString& otherName) {
    if (shown == other) return {};
    const QString rule = QObject::tr(
        "Compare takes two recordings of runs, or two size sweeps of the same pipeline.");
    if (other == ComparedKind::SizeSweep)
        return QObject::tr(
                   "%1 is a size sweep and the window shows a recording of runs, not a "
                   "sweep. %2 Open a size sweep first to compare it with another.")
            .arg(otherName, rule);
    return QObject::tr(
               "%1 is a recording of runs and the window shows a size sweep, not runs. "
               "%2 Open or run a recording first to compare it with another.")
        .arg(otherName, rule);
}

}  // namespace fusescope::model
