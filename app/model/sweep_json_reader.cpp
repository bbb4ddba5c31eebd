#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QObject>
#include <QStringList>
#include <cmath>

#include "model/json_document_format.h"
#include "model/json_reader.h"
#include "model/limited_read.h"
#include "model/sweep_json.h"

namespace fusescope::model {
namespace {

// Where the format is named: the writer puts it first, so a short read finds it.
constexpr qint64 kFormatPeekBytes = 4096;

SweepPoint readPoint(const JsonReader& point) {
    SweepPoint value;
    value.n = point.count("n");
    value.timeMs = point.number("time_ms");
    if (value.n < 1) point.fail("n", QStringLiteral("must be at least 1"));
    if (value.timeMs < 0) point.fail("time_ms", QStringLiteral("must not be negative"));
    // Files that give only the bandwidth: bytes follow from it and the time, and must be a count
    // as if they had been written (llround of anything outside that range is unspecified).
    if (const std::optional<quint64> bytes = point.optionalCount("bytes")) {
        value.bytes = *bytes;
    } else {
        const double derived = point.number("gbps") * value.timeMs * 1e6;
        if (!(derived >= 0 && derived <= static_cast<double>(kLargestExactJsonInteger)))
            point.fail("gbps", QStringLiteral("gives %1 bytes at this time, outside [0, 2^53]")
                                   .arg(derived, 0, 'g', 17));
        value.bytes = static_cast<std::uint64_t>(std::llround(derived));
    }
    value.rooflineGBps = point.optionalNumber("roofline_gbps").value_or(0.0);
    value.checkOk = point.optionalBoolean("check_ok").value_or(true);
    value.maxRelativeError = point.optionalNumber("max_rel_error").value_or(0.0);
    return value;
}

LaunchBandwidthFit readFit(const JsonReader& fit) {
    LaunchBandwidthFit value;
    value.overheadUs = fit.number("overhead_us");
    value.bandwidthGBps = fit.number("bandwidth_gbps");
    value.overheadClamped = fit.boolean("overhead_clamped");
    value.boundaryN = fit.number("boundary_n");
    value.rmsRelativeResidual = fit.optionalNumber("rms_relative_residual").value_or(0.0);
    value.samples = fit.optionalInteger("samples").value_or(0);
    value.samplesSetAside = fit.optionalInteger("set_aside").value_or(0);
    if (value.bandwidthGBps <= 0) fit.fail("bandwidth_gbps", QStringLiteral("must be positive"));
    return value;
}

SweepSeries readSeries(const JsonReader& series) {
    SweepSeries result;
    result.variant = series.string("variant").toStdString();
    result.title = series.optionalString("title").value_or(QString()).toStdString();
    result.launches = series.integer("launches");
    if (result.launches < 1) series.fail("launches", QStringLiteral("must be at least 1"));
    result.bytesPerElement = series.number("bytes_per_element");
    if (result.bytesPerElement <= 0)
        series.fail("bytes_per_element", QStringLiteral("must be positive"));
    const QJsonArray points = series.array("points");
    for (qsizetype k = 0; k < points.size(); ++k) {
        SweepPoint point = readPoint(series.element(points, "points", k));
        point.launches = result.launches;
        result.points.push_back(point);
    }
    if (const std::optional<JsonReader> fit = series.optionalObject("fit"))
        result.fit = readFit(*fit);
    else
        result.fitError = series.optionalString("fit_error").value_or(QString()).toStdString();
    return result;
}

DeviceInfo readDevice(const JsonReader& device, DataSource source) {
    DeviceInfo value;
    value.backend = source == DataSource::CpuBackend ? BackendKind::Cpu : BackendKind::Cuda;
    value.name = device.string("name").toStdString();
    value.l2CacheBytes = device.optionalCount("l2_cache_bytes").value_or(0);
    value.multiprocessors = device.optionalInteger("multiprocessors").value_or(0);
    value.deviceIndex = device.optionalInteger("device_index").value_or(0);
    value.totalMemoryBytes = device.optionalCount("total_memory_bytes").value_or(0);
    value.theoreticalBandwidthGBps =
        device.optionalNumber("theoretical_bandwidth_gbps").value_or(0.0);
    const QStringList capability =
        device.optionalString("compute_capability").value_or(QString()).split(QLatin1Char('.'));
    if (capability.size() == 2) {
        value.computeCapabilityMajor = capability[0].toInt();
        value.computeCapabilityMinor = capability[1].toInt();
    }
    return value;
}

SweepFile readDocument(const JsonReader& document) {
    checkDocumentFormat(document, kSweepFormat, kSweepVersion, QObject::tr("sweep file"));

    SweepFile file;
    const QString sourceKey = document.string("data_source");
    const std::optional<DataSource> source = dataSourceFromKey(sourceKey);
    if (!source) document.fail("data_source", QObject::tr("unknown source '%1'").arg(sourceKey));
    file.dataSource = *source;
    file.warmup = document.optionalInteger("warmup").value_or(0);
    file.stepsPerOctave = document.optionalInteger("steps_per_octave").value_or(1);
    file.producer = document.optionalString("producer").value_or(QString());
    file.created = document.optionalString("created").value_or(QString());
    file.description = document.optionalString("description").value_or(QString());

    SweepReport& report = file.report;
    report.pipeline = document.string("pipeline").toStdString();
    report.vectorWidth = document.integer("vector");
    report.repeats = document.integer("repeats");
    report.device = readDevice(document.object("device"), file.dataSource);
    const QJsonArray series = document.array("series");
    for (qsizetype k = 0; k < series.size(); ++k)
        report.series.push_back(readSeries(document.element(series, "series", k)));
    if (const std::optional<QJsonArray> sizes = document.optionalArray("sizes")) {
        for (qsizetype k = 0; k < sizes->size(); ++k) {
            // Converting a negative, fractional or huge double to an integer is undefined.
            const QJsonValue n = sizes->at(k);
            const double size = n.toDouble(-1.0);
            if (!n.isDouble() || !(size >= 1) ||
                size > static_cast<double>(kLargestExactJsonInteger) || std::floor(size) != size)
                document.fail("sizes", QStringLiteral("element %1 is not a size (a whole number "
                                                      "from 1 to 2^53)")
                                           .arg(k));
            report.sizes.push_back(static_cast<std::uint64_t>(size));
        }
    } else if (!report.series.empty()) {
        for (const SweepPoint& point : report.series.front().points)
            report.sizes.push_back(point.n);
    }
    return file;
}

}  // namespace

Result<SweepFile> parseSweepFile(const QByteArray& json) {
    return readJsonObject<SweepFile>(json, "not a FuseScope sweep file (no JSON object)",
                                     [](const JsonReader& reader) { return readDocument(reader); });
}

Result<SweepFile> loadSweepFile(const QString& path) {
    Result<QByteArray> bytes = readFileLimited(path);
    if (!bytes) return bytes.status();
    Result<SweepFile> sweep = parseSweepFile(*bytes);
    if (!sweep)
        return Status(sweep.status().code(), path.toStdString() + ": " + sweep.status().message());
    return sweep;
}

bool isSweepFile(const QString& path) {
    // A special file (a FIFO would block the open) is no sweep.
    if (!readSourceProblem(path).isEmpty()) return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return false;
    const QByteArray start = file.read(kFormatPeekBytes);
    return start.contains(QByteArray("\"") + kSweepFormat + "\"");
}

}  // namespace fusescope::model
