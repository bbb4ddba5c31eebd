#include "model/sweep_chart_conversion.h"

#include <QObject>
#include <QStringList>

#include "model/format.h"
#include "model/recording.h"
#include "pipelines/registry.h"

namespace fusescope::model {

namespace {

// Where every buffer is an array of the swept size (or the registry lacks the pipeline, as the
// elementwise sweeps it was written for).
bool sweepsWholeArrays(const PipelineSpec* pipeline) {
    return !pipeline || pipeline->countsPasses;
}

}  // namespace

quint64 sizeOneArrayFills(const PipelineSpec* pipeline, quint64 bytes) {
    return sweepsWholeArrays(pipeline) ? bytes / sizeof(float) : 0;
}

void describeSweptSize(SweepChartData& data, const PipelineSpec* pipeline) {
    data.elementBytes = sweepsWholeArrays(pipeline) ? static_cast<double>(sizeof(float)) : 0.0;
    if (!pipeline) return;
    data.sizeDimension = QString::fromStdString(pipeline->sizeDimension);
    if (const DimensionSpec* swept = pipeline->findDimension(pipeline->sizeDimension))
        data.sizeTitle = QString::fromStdString(swept->title);
}

QStringList sweptProblemWords(const PipelineSpec* pipeline, int vectorWidth) {
    if (!pipeline) return {QStringLiteral("float32"), QObject::tr("vector %1").arg(vectorWidth)};
    QStringList words{QString::fromLatin1(dtypeName(pipeline->defaultProblem().dtype))};
    if (pipeline->findTuning(kVectorWidthTuning))
        words << QObject::tr("vector %1").arg(vectorWidth);
    return words;
}

QString cacheFitWords(const PipelineSpec* pipeline, quint64 bytes) {
    const quint64 fits = sizeOneArrayFills(pipeline, bytes);
    if (fits == 0) return {};
    return QObject::tr("one float32 array fits up to %1 = %2")
        .arg(pipeline ? QString::fromStdString(pipeline->sizeDimension) : QStringLiteral("N"),
             formatCount(fits));
}

SweepChartData sweepChartData(const SweepReport& report) {
    SweepChartData data;
    const PipelineSpec* pipeline = findPipeline(report.pipeline);
    data.title = QObject::tr("Size sweep: %1")
                     .arg(QString::fromStdString(pipeline ? pipeline->title : report.pipeline));
    QStringList caption{QString::fromStdString(report.device.name)};
    caption << sweptProblemWords(pipeline, report.vectorWidth)
            << QObject::tr("median of %1").arg(report.repeats);
    data.caption = caption.join(QStringLiteral(" · "));
    data.dataSource = dataSourceLabel(sweepDataSource(report));
    data.l2CacheBytes = static_cast<double>(report.device.l2CacheBytes);
    describeSweptSize(data, pipeline);
    for (const SweepSeries& series : report.series) {
        SweepChartSeries chartSeries;
        chartSeries.name = QString::fromStdString(series.variant);
        chartSeries.launches = series.launches;
        chartSeries.bytesPerElement = series.bytesPerElement;
        for (const SweepPoint& point : series.points)
            chartSeries.points.append({static_cast<double>(point.n), point.timeMs,
                                       point.effectiveGBps(), point.rooflineGBps});
        if (series.fit)
            chartSeries.fit = SweepChartFit{series.fit->overheadUs, series.fit->bandwidthGBps,
                                            series.fit->overheadClamped, series.fit->boundaryN,
                                            series.fit->samplesSetAside};
        chartSeries.fitError = QString::fromStdString(series.fitError);
        data.series.append(chartSeries);
    }
    return data;
}

SweepChartData sweepChartData(const SweepFile& file) {
    SweepChartData data = sweepChartData(file.report);
    // Read back from a file: say so, as recordings do.
    data.dataSource = QObject::tr("%1, replayed").arg(dataSourceLabel(file.dataSource));
    return data;
}

}  // namespace fusescope::model
