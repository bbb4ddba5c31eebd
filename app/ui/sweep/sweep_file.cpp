#include "ui/sweep/sweep_file.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include "model/json_reader.h"
#include "model/limited_read.h"
#include "model/recording.h"
#include "pipelines/registry.h"

namespace fusescope {
namespace {

using model::JsonReader;

SweepChartSeries readSeries(const JsonReader& series) {
    SweepChartSeries result;
    result.name = series.string("variant");
    result.launches = series.integer("launches");
    if (result.launches < 1) series.fail("launches", QStringLiteral("must be at least 1"));
    result.bytesPerElement = series.number("bytes_per_element");
    if (result.bytesPerElement <= 0)
        series.fail("bytes_per_element", QStringLiteral("must be positive"));
    const QJsonArray points = series.array("points");
    for (qsizetype k = 0; k < points.size(); ++k) {
        const JsonReader point = series.element(points, "points", k);
        SweepChartPoint value;
        value.n = static_cast<double>(point.count("n"));
        value.timeMs = point.number("time_ms");
        value.gbps = point.number("gbps");
        value.rooflineGBps = point.optionalNumber("roofline_gbps").value_or(0.0);
        if (value.n < 1) point.fail("n", QStringLiteral("must be at least 1"));
        if (value.timeMs < 0) point.fail("time_ms", QStringLiteral("must not be negative"));
        result.points.append(value);
    }
    if (const std::optional<JsonReader> fit = series.optionalObject("fit")) {
        SweepChartFit value;
        value.overheadUs = fit->number("overhead_us");
        value.bandwidthGBps = fit->number("bandwidth_gbps");
        value.overheadClamped = fit->boolean("overhead_clamped");
        value.boundaryN = fit->number("boundary_n");
        value.samplesSetAside = fit->optionalInteger("set_aside").value_or(0);
        if (value.bandwidthGBps <= 0)
            fit->fail("bandwidth_gbps", QStringLiteral("must be positive"));
        result.fit = value;
    } else {
        result.fitError = series.optionalString("fit_error").value_or(QString());
    }
    return result;
}

SweepChartData readDocument(const JsonReader& document) {
    const QString format = document.string("format");
    if (format != QLatin1String(kSweepFileFormat))
        throw model::JsonFieldError(
            QObject::tr("not a FuseScope sweep file (format '%1', expected '%2')")
                .arg(format, QLatin1String(kSweepFileFormat)));
    const int version = document.integer("version");
    if (version < 1 || version > kSweepFileVersion)
        throw model::JsonFieldError(
            QObject::tr("sweep file version %1 is not one this FuseScope reads (1 to %2)")
                .arg(version)
                .arg(kSweepFileVersion));

    SweepChartData data;
    const QString pipelineName = document.string("pipeline");
    const PipelineSpec* pipeline = findPipeline(pipelineName.toStdString());
    data.title = QObject::tr("Size sweep: %1")
                     .arg(pipeline ? QString::fromStdString(pipeline->title) : pipelineName);
    const JsonReader device = document.object("device");
    data.l2CacheBytes = static_cast<double>(device.optionalCount("l2_cache_bytes").value_or(0));
    QStringList caption{device.string("name"), QStringLiteral("float32"),
                        QObject::tr("vector %1").arg(document.integer("vector")),
                        QObject::tr("median of %1").arg(document.integer("repeats"))};
    data.caption = caption.join(QStringLiteral(" · "));
    const QString sourceKey = document.string("data_source");
    const std::optional<model::DataSource> source = model::dataSourceFromKey(sourceKey);
    if (!source) document.fail("data_source", QObject::tr("unknown source '%1'").arg(sourceKey));
    // Read back from a file: say so, as recordings do.
    data.dataSource = QObject::tr("%1, replayed").arg(model::dataSourceLabel(*source));

    const QJsonArray series = document.array("series");
    for (qsizetype k = 0; k < series.size(); ++k)
        data.series.append(readSeries(document.element(series, "series", k)));
    return data;
}

}  // namespace

Result<SweepChartData> parseSweepFile(const QByteArray& json) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return Status(ErrorCode::InvalidArgument, QObject::tr("not valid JSON at byte %1: %2")
                                                      .arg(error.offset)
                                                      .arg(error.errorString())
                                                      .toStdString());
    if (!document.isObject())
        return Status(ErrorCode::InvalidArgument, "not a FuseScope sweep file (no JSON object)");
    try {
        return readDocument(JsonReader(document.object(), QString()));
    } catch (const model::JsonFieldError& problem) {
        return Status(ErrorCode::InvalidArgument, problem.what());
    }
}

Result<SweepChartData> loadSweepFile(const QString& path) {
    Result<QByteArray> bytes = model::readFileLimited(path);
    if (!bytes) return bytes.status();
    Result<SweepChartData> data = parseSweepFile(*bytes);
    if (!data)
        return Status(data.status().code(), path.toStdString() + ": " + data.status().message());
    return data;
}

}  // namespace fusescope
