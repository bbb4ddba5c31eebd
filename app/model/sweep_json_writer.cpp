#include "model/sweep_json.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include "model/atomic_save.h"
#include "model/producer.h"

namespace fusescope::model {
namespace {

QJsonObject deviceJson(const DeviceInfo& device) {
    QJsonObject json{
        {QStringLiteral("backend"), QString::fromLatin1(backendName(device.backend))},
        {QStringLiteral("name"), QString::fromStdString(device.name)},
        {QStringLiteral("compute_capability"), QStringLiteral("%1.%2")
                                                   .arg(device.computeCapabilityMajor)
                                                   .arg(device.computeCapabilityMinor)},
        {QStringLiteral("multiprocessors"), device.multiprocessors},
        {QStringLiteral("l2_cache_bytes"), static_cast<double>(device.l2CacheBytes)},
        {QStringLiteral("total_memory_bytes"), static_cast<double>(device.totalMemoryBytes)},
        {QStringLiteral("theoretical_bandwidth_gbps"), device.theoreticalBandwidthGBps}};
    // Which GPU of the host swept (several GPUs in one host); the CPU has no ordinal.
    if (device.backend == BackendKind::Cuda)
        json.insert(QStringLiteral("device_index"), device.deviceIndex);
    return json;
}

QJsonObject seriesJson(const SweepSeries& series) {
    QJsonArray points;
    for (const SweepPoint& point : series.points) {
        const std::optional<Regime> regime = series.regimeAt(point);
        const std::optional<double> residual = series.residualAt(point);
        points.append(QJsonObject{
            {QStringLiteral("n"), static_cast<double>(point.n)},
            {QStringLiteral("bytes"), static_cast<double>(point.bytes)},
            {QStringLiteral("time_ms"), point.timeMs},
            {QStringLiteral("gbps"), point.effectiveGBps()},
            {QStringLiteral("roofline_gbps"), point.rooflineGBps},
            {QStringLiteral("check_ok"), point.checkOk},
            {QStringLiteral("max_rel_error"), point.maxRelativeError},
            {QStringLiteral("fit_residual"),
             residual ? QJsonValue(*residual) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("regime"), regime ? QJsonValue(QString::fromLatin1(regimeName(*regime)))
                                              : QJsonValue(QJsonValue::Null)}});
    }
    QJsonObject object{{QStringLiteral("variant"), QString::fromStdString(series.variant)},
                       {QStringLiteral("title"), QString::fromStdString(series.title)},
                       {QStringLiteral("launches"), series.launches},
                       {QStringLiteral("bytes_per_element"), series.bytesPerElement},
                       {QStringLiteral("points"), points}};
    if (series.fit) {
        const LaunchBandwidthFit& fit = *series.fit;
        object.insert(
            QStringLiteral("fit"),
            QJsonObject{{QStringLiteral("overhead_us"), fit.overheadUs},
                        {QStringLiteral("bandwidth_gbps"), fit.bandwidthGBps},
                        {QStringLiteral("overhead_clamped"), fit.overheadClamped},
                        {QStringLiteral("boundary_n"), fit.boundaryN},
                        {QStringLiteral("rms_relative_residual"), fit.rmsRelativeResidual},
                        {QStringLiteral("samples"), fit.samples},
                        {QStringLiteral("set_aside"), fit.samplesSetAside}});
    } else {
        object.insert(QStringLiteral("fit"), QJsonValue(QJsonValue::Null));
        object.insert(QStringLiteral("fit_error"), QString::fromStdString(series.fitError));
    }
    return object;
}

}  // namespace

DataSource sweepDataSource(const SweepReport& report) {
    return report.device.backend == BackendKind::Cuda ? DataSource::TimingModel
                                                      : DataSource::CpuBackend;
}

QString sweepDataSourceKey(const SweepReport& report) {
    return dataSourceKey(sweepDataSource(report));
}

QJsonObject sweepDocument(const SweepReport& report, const SweepRequest& request,
                          const QString& producer) {
    QJsonArray sizes;
    for (std::uint64_t n : report.sizes) sizes.append(static_cast<double>(n));
    QJsonArray series;
    for (const SweepSeries& one : report.series) series.append(seriesJson(one));
    return {
        {QStringLiteral("format"), QLatin1String(kSweepFormat)},
        {QStringLiteral("version"), kSweepVersion},
        {QStringLiteral("producer"), producerString(producer)},
        {QStringLiteral("created"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("pipeline"), QString::fromStdString(report.pipeline)},
        {QStringLiteral("vector"), report.vectorWidth},
        {QStringLiteral("repeats"), report.repeats},
        {QStringLiteral("warmup"), request.settings.warmup},
        {QStringLiteral("steps_per_octave"), request.stepsPerOctave},
        {QStringLiteral("data_source"), sweepDataSourceKey(report)},
        {QStringLiteral("model"), QStringLiteral("time = launches * overhead + bytes / bandwidth")},
        {QStringLiteral("device"), deviceJson(report.device)},
        {QStringLiteral("sizes"), sizes},
        {QStringLiteral("series"), series}};
}

Status saveSweepDocument(const QJsonObject& document, const QString& path) {
    return saveBytesAtomically(QJsonDocument(document).toJson(QJsonDocument::Indented), path);
}

}  // namespace fusescope::model
