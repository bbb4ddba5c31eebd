#include "model/recording_json.h"

// The writing half of a recording's JSON; recording_json.cpp reads it.

#include <QJsonArray>
#include <QJsonDocument>

#include "model/atomic_save.h"
#include "model/json_reader.h"
#include "model/measured_counts.h"
#include "model/pipeline_description_json.h"
#include "model/recorded_pipelines.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

// Collects the first count that JSON cannot hold exactly, with its path.
class JsonWriter {
  public:
    QJsonValue count(quint64 value, const QString& path) {
        if (value > static_cast<quint64>(kLargestExactJsonInteger) && problem_.isEmpty())
            problem_ =
                QStringLiteral("%1 = %2 exceeds 2^53, the largest integer JSON holds exactly")
                    .arg(path)
                    .arg(value);
        return QJsonValue(static_cast<qint64>(value));
    }
    QJsonValue signedCount(qint64 value, const QString& path) {
        if ((value > kLargestExactJsonInteger || value < -kLargestExactJsonInteger) &&
            problem_.isEmpty())
            problem_ =
                QStringLiteral("%1 = %2 exceeds 2^53, the largest integer JSON holds exactly")
                    .arg(path)
                    .arg(value);
        return QJsonValue(value);
    }
    const QString& problem() const { return problem_; }

  private:
    QString problem_;
};

QJsonValue optionalNumber(const std::optional<double>& value) {
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonValue optionalSource(const std::optional<MeasurementSource>& source) {
    return source ? QJsonValue(measurementSourceKey(*source)) : QJsonValue(QJsonValue::Null);
}

QJsonObject deviceToJson(const DeviceInfo& device, JsonWriter& writer) {
    QJsonObject json{
        {"backend", QLatin1String(backendName(device.backend))},
        {"name", toQString(device.name)},
        {"compute_capability_major", device.computeCapabilityMajor},
        {"compute_capability_minor", device.computeCapabilityMinor},
        {"multiprocessors", device.multiprocessors},
        {"l2_cache_bytes", writer.count(device.l2CacheBytes, "device.l2_cache_bytes")},
        {"total_memory_bytes", writer.count(device.totalMemoryBytes, "device.total_memory_bytes")},
        {"free_memory_bytes", writer.count(device.freeMemoryBytes, "device.free_memory_bytes")},
        {"theoretical_bandwidth_gbps", device.theoreticalBandwidthGBps},
        {"driver_version", toQString(device.driverVersion)},
        {"runtime_version", toQString(device.runtimeVersion)},
        {"memory_name", toQString(device.memoryName)},
        {"processors_name", toQString(device.processorsName)},
    };
    // Which GPU of the host ran it; a CPU run has no device ordinal.
    if (device.backend == BackendKind::Cuda) json.insert("device_index", device.deviceIndex);
    return json;
}

// Where each launch was counted several times: how often, and the ranges of the counts.
void addCountedLaunches(const KernelCounters& counters, QJsonObject& json) {
    if (!counters.countedLaunches) return;
    json.insert("counted_launches", static_cast<qint64>(*counters.countedLaunches));
    const auto addSpread = [&json](const std::optional<CountSpread>& spread, const char* low,
                                   const char* high) {
        if (!spread) return;
        json.insert(QLatin1String(low), spread->low);
        json.insert(QLatin1String(high), spread->high);
    };
    addSpread(counters.dramReadSpread, "dram_bytes_read_low", "dram_bytes_read_high");
    addSpread(counters.dramWrittenSpread, "dram_bytes_written_low", "dram_bytes_written_high");
    addSpread(counters.l2SectorsReadSpread, "l2_sectors_read_low", "l2_sectors_read_high");
}

QJsonObject kernelToJson(const KernelResult& kernel, const QString& path, JsonWriter& writer) {
    // Launch resources are unknown on the CPU backend: null, never a made-up zero.
    const auto resource = [&](auto value) {
        return kernel.resources.known ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
    };
    QJsonObject json{
        {"name", QString::fromStdString(kernel.name)},
        {"time_ms", kernel.timeMs},
        {"model_bytes_read", writer.count(kernel.modelBytesRead, path + ".model_bytes_read")},
        {"model_bytes_written",
         writer.count(kernel.modelBytesWritten, path + ".model_bytes_written")},
        {"model_flops", kernel.modelFlops},
        {"registers", resource(kernel.resources.registersPerThread)},
        {"shared_bytes", resource(kernel.resources.sharedBytesPerBlock)},
        {"local_bytes", resource(kernel.resources.localBytesPerThread)},
        {"block_size", resource(kernel.resources.blockSize)},
        {"grid_size", resource(kernel.resources.gridSize)},
        {"occupancy", resource(kernel.resources.theoreticalOccupancy)},
        {"dram_bytes_read", optionalNumber(measured(kernel, &KernelCounters::dramBytesRead))},
        {"dram_bytes_written", optionalNumber(measured(kernel, &KernelCounters::dramBytesWritten))},
        {"sectors_read", optionalNumber(measured(kernel, &KernelCounters::sectorsRead))},
        {"sectors_written", optionalNumber(measured(kernel, &KernelCounters::sectorsWritten))},
        {"l2_sectors_read", optionalNumber(measured(kernel, &KernelCounters::l2SectorsRead))},
        {"l2_sectors_written", optionalNumber(measured(kernel, &KernelCounters::l2SectorsWritten))},
        {"device_kernels", kernel.counters && kernel.counters->deviceKernels
                               ? QJsonValue(static_cast<qint64>(*kernel.counters->deviceKernels))
                               : QJsonValue()},
    };
    if (kernel.counters) addCountedLaunches(*kernel.counters, json);
    return json;
}

QJsonObject allocationToJson(const AllocationEvent& event, const QString& path,
                             JsonWriter& writer) {
    return {
        {"kind", event.kind == AllocationEvent::Kind::Allocate ? "allocate" : "free"},
        {"buffer", toQString(event.buffer)},
        {"bytes", writer.count(event.bytes, path + ".bytes")},
        {"time_ns", writer.signedCount(event.timeNs, path + ".time_ns")},
        {"in_flight_after", writer.count(event.inFlightAfter, path + ".in_flight_after")},
    };
}

QJsonObject spanToJson(const TimelineSpan& span, const QString& path, JsonWriter& writer) {
    return {
        {"kind", span.kind == TimelineSpan::Kind::Kernel ? "kernel" : "allocation"},
        {"name", toQString(span.name)},
        {"start_ns", writer.signedCount(span.startNs, path + ".start_ns")},
        {"end_ns", writer.signedCount(span.endNs, path + ".end_ns")},
        {"bytes", writer.count(span.bytes, path + ".bytes")},
    };
}

QJsonObject sampleToJson(const BandwidthSample& sample, const QString& path, JsonWriter& writer) {
    return {
        {"time_ns", writer.signedCount(sample.startNs, path + ".time_ns")},
        {"duration_ns", writer.signedCount(sample.endNs - sample.startNs, path + ".duration_ns")},
        {"read_bytes_per_second", sample.readBytesPerSecond},
        {"write_bytes_per_second", sample.writeBytesPerSecond},
    };
}

template <typename T, typename ToJson>
QJsonArray arrayToJson(const std::vector<T>& items, const QString& path, JsonWriter& writer,
                       ToJson toJson) {
    QJsonArray array;
    for (std::size_t i = 0; i < items.size(); ++i)
        array.append(toJson(items[i], QStringLiteral("%1[%2]").arg(path).arg(i), writer));
    return array;
}

QJsonObject problemToJson(const Problem& problem, const QString& path, JsonWriter& writer) {
    QJsonObject dimensions;
    for (const auto& [name, value] : problem.dimensions)
        dimensions.insert(
            QString::fromStdString(name),
            writer.count(value, path + ".dimensions." + QString::fromStdString(name)));
    QJsonObject tuning;
    for (const auto& [name, value] : problem.tuning)
        tuning.insert(QString::fromStdString(name), value);
    return {{"dimensions", dimensions},
            {"dtype", QString::fromUtf8(dtypeName(problem.dtype))},
            {"tuning", tuning}};
}

// Not kept: check.wrongOutput and check.wrongElement, and kernelsApartTimesMs (the total
// kernelsApartTimeMs is kept).
QJsonObject runToJson(const VariantResult& run, const QString& path, JsonWriter& writer) {
    QJsonArray repeats;
    for (double time : run.repeatTimesMs) repeats.append(time);
    return {
        {"pipeline", toQString(run.pipeline)},
        {"variant", toQString(run.variant)},
        {"problem", problemToJson(run.problem, path + ".problem", writer)},
        {"backend", QLatin1String(backendName(run.backend))},
        {"passes", run.passes},
        {"passes_counted", run.passesCounted},
        {"model_flops", run.modelFlops},
        {"model_bytes_read", writer.count(run.modelBytesRead, path + ".model_bytes_read")},
        {"model_bytes_written", writer.count(run.modelBytesWritten, path + ".model_bytes_written")},
        {"time_ms", run.timeMs},
        {"repeat_times_ms", repeats},
        {"kernels_apart_time_ms", run.kernelsApartTimeMs},
        {"peak_bytes_in_flight",
         writer.count(run.peakBytesInFlight, path + ".peak_bytes_in_flight")},
        {"check_measure", toQString(run.check.measure)},
        {"max_rel_error", run.check.error},
        {"check_tolerance", run.check.tolerance},
        {"unwritten_elements",
         writer.count(run.check.unwrittenElements, path + ".unwritten_elements")},
        {"output_elements", writer.count(run.outputElements, path + ".output_elements")},
        {"compared_elements",
         writer.count(run.check.comparedElements, path + ".compared_elements")},
        {"check_ok", run.check.ok},
        {"kernels", arrayToJson(run.kernels, path + ".kernels", writer, kernelToJson)},
        {"allocations",
         arrayToJson(run.allocations, path + ".allocations", writer, allocationToJson)},
        {"timeline", arrayToJson(run.timeline, path + ".timeline", writer, spanToJson)},
        {"samples", arrayToJson(run.samples, path + ".samples", writer, sampleToJson)},
        {"samples_before_thinning", run.samplesBeforeThinning > 0
                                        ? QJsonValue(static_cast<double>(run.samplesBeforeThinning))
                                        : QJsonValue(QJsonValue::Null)},
        {"data_source", QJsonObject{{"timing", measurementSourceKey(run.timingSource)},
                                    {"counters", optionalSource(run.countersSource)},
                                    {"samples", optionalSource(run.samplesSource)}}},
    };
}

}  // namespace

QString measurementSourceKey(MeasurementSource source) {
    return dataSourceKey(dataSourceFrom(source));
}

Result<QJsonObject> recordingToJson(const Recording& recording) {
    JsonWriter writer;
    QJsonObject root{
        {"format", QLatin1String(kRecordingFormat)},
        {"version", kRecordingVersion},
        {"created_at", recording.createdAt},
        {"producer", recording.producer},
        {"device", deviceToJson(recording.device, writer)},
        {"copy_roofline", QJsonObject{{"time_ms", recording.roofline.timeMs},
                                      {"bytes_moved", writer.count(recording.roofline.bytesMoved,
                                                                   "copy_roofline.bytes_moved")},
                                      {"gbps", recording.roofline.gbps()}}},
        {"counter_status", toQString(recording.counterStatus)},
        {"runs", arrayToJson(recording.runs, "runs", writer, runToJson)},
    };
    if (recording.computeRoof)
        root.insert("compute_roof",
                    QJsonObject{{"time_ms", recording.computeRoof->timeMs},
                                {"flops", recording.computeRoof->flops},
                                {"tflops", recording.computeRoof->tflops()},
                                {"description", toQString(recording.computeRoof->description)}});
    // Optional keys, written only where they say something (older readers ignore them).
    if (!recording.description.isEmpty()) root.insert("description", recording.description);
    if (!recording.variantsNotRun.empty()) {
        QJsonArray notRun;
        for (const VariantNotRun& variant : recording.variantsNotRun)
            notRun.append(QJsonObject{{"variant", toQString(variant.variant)},
                                      {"reason", toQString(variant.reason)}});
        root.insert("variants_not_run", notRun);
    }
    QJsonArray descriptions;
    for (const PipelineDescription& description : descriptionsToSave(recording))
        descriptions.append(pipelineDescriptionToJson(description));
    if (!descriptions.isEmpty()) root.insert("pipelines", descriptions);
    if (!writer.problem().isEmpty())
        return Status(ErrorCode::InvalidArgument,
                      "cannot save the recording: " + writer.problem().toStdString());
    return root;
}

Result<QByteArray> recordingToJsonBytes(const Recording& recording) {
    Result<QJsonObject> root = recordingToJson(recording);
    if (!root) return root.status();
    return QJsonDocument(*root).toJson(QJsonDocument::Indented);
}

Status saveRecording(const Recording& recording, const QString& path) {
    Result<QByteArray> bytes = recordingToJsonBytes(recording);
    if (!bytes) return bytes.status();
    return saveBytesAtomically(*bytes, path);
}

}  // namespace fusescope::model
