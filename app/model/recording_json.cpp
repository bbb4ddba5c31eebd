#include "model/recording_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <limits>

#include "measure/counted_launches.h"
#include "model/atomic_save.h"
#include "model/json_reader.h"
#include "model/json_shape.h"
#include "model/limited_read.h"
#include "model/measured_counts.h"
#include "model/pipeline_description_json.h"
#include "model/recorded_pipelines.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

// Times outside these are no measurement: no clock here resolves below a nanosecond, and a
// shorter time turns every rate into infinity.
constexpr double kShortestTimeMs = 1e-6;
constexpr double kLongestTimeMs = 1e8;  // about 28 hours
// FLOPs and byte counts written as numbers: far above any run, far below overflow in a rate.
constexpr double kLargestAmount = 1e24;
// Counts in one recording. A recording holds one run per variant of one pipeline (six at most
// today) of up to five kernels, a few dozen timeline spans and allocations and some thousand
// samples. The window labels and draws every one of them (300 runs took it 14 s, 4,096 allocations
// 26 s, 384,000 samples in 32 runs 47 s), so these keep the largest file it accepts within seconds.
constexpr qsizetype kMaxRuns = 32;
constexpr qsizetype kMaxKernels = 8;
constexpr qsizetype kMaxEvents = 512;  // allocations, timeline spans: per run
constexpr qsizetype kMaxEventsInAll = 2048;
constexpr qsizetype kMaxSamples = 100'000;  // per run and in all (real: 40,000 unthinned)

// A duration in milliseconds; 0 only where `zeroMeansNone` (a kernel too short to time).
double checkDuration(const JsonReader& reader, const char* key, double timeMs, bool zeroMeansNone) {
    if (zeroMeansNone && timeMs == 0) return timeMs;
    if (!(timeMs >= kShortestTimeMs && timeMs <= kLongestTimeMs))
        reader.fail(key, QStringLiteral("%1 ms is no measured time (times lie in [%2, %3] ms)")
                             .arg(timeMs, 0, 'g', 17)
                             .arg(kShortestTimeMs, 0, 'g')
                             .arg(kLongestTimeMs, 0, 'g'));
    return timeMs;
}

double readDuration(const JsonReader& reader, const char* key, bool zeroMeansNone = false) {
    return checkDuration(reader, key, reader.number(key), zeroMeansNone);
}

std::optional<double> readOptionalAmount(const JsonReader& reader, const char* key) {
    return reader.optionalNumberIn(key, 0, kLargestAmount);
}

// A file names the source of each group of numbers by its badge's key.
MeasurementSource readSource(const JsonReader& reader, const char* key) {
    const QString text = reader.string(key);
    for (MeasurementSource source : {MeasurementSource::Counters, MeasurementSource::TimingModel,
                                     MeasurementSource::CpuBackend})
        if (measurementSourceKey(source) == text) return source;
    reader.fail(
        key,
        QStringLiteral("unknown data source '%1' (known: counters, timing+model, cpu)").arg(text));
    return MeasurementSource::TimingModel;
}

std::optional<MeasurementSource> readOptionalSource(const JsonReader& reader, const char* key) {
    if (!reader.optionalString(key)) return std::nullopt;
    return readSource(reader, key);
}

std::string readText(const JsonReader& reader, const char* key) {
    return reader.string(key).toStdString();
}

std::string readOptionalText(const JsonReader& reader, const char* key) {
    return reader.optionalString(key).value_or(QString()).toStdString();
}

BackendKind readBackend(const JsonReader& reader, const char* key) {
    const QString name = reader.string(key);
    for (BackendKind kind : {BackendKind::Cpu, BackendKind::Cuda})
        if (name == QLatin1String(backendName(kind))) return kind;
    reader.fail(key, QStringLiteral("unknown backend '%1' (known: cpu, cuda)").arg(name));
    return BackendKind::Cpu;
}

DeviceInfo readDevice(const JsonReader& reader) {
    DeviceInfo device;
    device.backend = readBackend(reader, "backend");
    device.name = readText(reader, "name");
    device.computeCapabilityMajor = reader.optionalInteger("compute_capability_major").value_or(0);
    device.computeCapabilityMinor = reader.optionalInteger("compute_capability_minor").value_or(0);
    device.multiprocessors = reader.optionalInteger("multiprocessors").value_or(0);
    device.l2CacheBytes = reader.optionalCount("l2_cache_bytes").value_or(0);
    device.totalMemoryBytes = reader.optionalCount("total_memory_bytes").value_or(0);
    device.freeMemoryBytes = reader.optionalCount("free_memory_bytes").value_or(0);
    device.theoreticalBandwidthGBps =
        readOptionalAmount(reader, "theoretical_bandwidth_gbps").value_or(0.0);
    device.driverVersion = readOptionalText(reader, "driver_version");
    device.runtimeVersion = readOptionalText(reader, "runtime_version");
    device.memoryName = readOptionalText(reader, "memory_name");
    device.processorsName = readOptionalText(reader, "processors_name");
    // Recordings written before the backends named these: the words their backends use.
    const bool cpu = device.backend == BackendKind::Cpu;
    if (device.memoryName.empty()) device.memoryName = cpu ? "memory (RAM)" : "HBM (device memory)";
    if (device.processorsName.empty()) device.processorsName = cpu ? "CPU cores" : "SMs";
    device.deviceIndex = reader.optionalInteger("device_index").value_or(0);
    return device;
}

// A count's lowest and highest over the counted launches, where the file gives them; they must
// hold the count's median between them.
std::optional<CountSpread> readSpread(const JsonReader& reader, const char* lowKey,
                                      const char* highKey, const std::optional<double>& median) {
    const std::optional<double> low = readOptionalAmount(reader, lowKey);
    const std::optional<double> high = readOptionalAmount(reader, highKey);
    if (!low && !high) return std::nullopt;
    if (!low || !high)
        reader.fail(low ? highKey : lowKey,
                    QStringLiteral("is missing: a range of counts has a low and a high end"));
    if (!median || *low > *median || *median > *high)
        reader.fail(lowKey, QStringLiteral("%1 .. %2 does not hold the count's median")
                                .arg(*low, 0, 'g', 17)
                                .arg(*high, 0, 'g', 17));
    return CountSpread{*low, *high};
}

// How often each launch was counted and the ranges of the counts that moved, where the counter
// run counted it more than once.
void readCountedLaunches(const JsonReader& reader, KernelCounters& counters) {
    const std::optional<int> launches = reader.optionalInteger("counted_launches");
    if (!launches) return;
    reader.checkRange("counted_launches", *launches, 2, kMaxCountedLaunches);
    counters.countedLaunches = static_cast<std::uint32_t>(*launches);
    counters.dramReadSpread =
        readSpread(reader, "dram_bytes_read_low", "dram_bytes_read_high", counters.dramBytesRead);
    counters.dramWrittenSpread = readSpread(reader, "dram_bytes_written_low",
                                            "dram_bytes_written_high", counters.dramBytesWritten);
    counters.l2SectorsReadSpread =
        readSpread(reader, "l2_sectors_read_low", "l2_sectors_read_high", counters.l2SectorsRead);
}

KernelResult readKernel(const JsonReader& reader) {
    KernelResult kernel;
    kernel.name = reader.string("name").toStdString();
    kernel.timeMs = readDuration(reader, "time_ms", true);
    kernel.modelBytesRead = reader.count("model_bytes_read");
    kernel.modelBytesWritten = reader.count("model_bytes_written");
    kernel.modelFlops = readOptionalAmount(reader, "model_flops").value_or(0.0);
    // Resources are known when the registers are given (null or absent on the CPU backend).
    const std::optional<int> registers = reader.optionalInteger("registers");
    kernel.resources.known = registers.has_value();
    kernel.resources.registersPerThread = registers.value_or(0);
    kernel.resources.sharedBytesPerBlock = reader.optionalInteger("shared_bytes").value_or(0);
    kernel.resources.localBytesPerThread = reader.optionalInteger("local_bytes").value_or(0);
    kernel.resources.blockSize = reader.optionalInteger("block_size").value_or(0);
    kernel.resources.gridSize = reader.optionalInteger("grid_size").value_or(0);
    kernel.resources.theoreticalOccupancy =
        reader.optionalNumberIn("occupancy", 0, 1).value_or(0.0);
    // Every count is read (and checked) even where the DRAM bytes, which make the counters, are
    // missing.
    const std::optional<double> dramRead = readOptionalAmount(reader, "dram_bytes_read");
    const std::optional<double> dramWritten = readOptionalAmount(reader, "dram_bytes_written");
    KernelCounters counters;
    counters.sectorsRead = readOptionalAmount(reader, "sectors_read");
    counters.sectorsWritten = readOptionalAmount(reader, "sectors_written");
    counters.l2SectorsRead = readOptionalAmount(reader, "l2_sectors_read");
    counters.l2SectorsWritten = readOptionalAmount(reader, "l2_sectors_written");
    if (const std::optional<int> launched = reader.optionalInteger("device_kernels"))
        counters.deviceKernels = static_cast<std::uint32_t>(*launched);
    if (dramRead && dramWritten) {
        counters.dramBytesRead = *dramRead;
        counters.dramBytesWritten = *dramWritten;
        readCountedLaunches(reader, counters);
        kernel.counters = counters;
    }
    return kernel;
}

AllocationEvent readAllocation(const JsonReader& reader) {
    AllocationEvent event;
    event.kind = reader.wordIndex("kind", {"allocate", "free"}) == 0
                     ? AllocationEvent::Kind::Allocate
                     : AllocationEvent::Kind::Free;
    event.buffer = readText(reader, "buffer");
    event.bytes = reader.count("bytes");
    event.timeNs = reader.signedCount("time_ns");
    event.inFlightAfter = reader.count("in_flight_after");
    return event;
}

TimelineSpan readSpan(const JsonReader& reader) {
    TimelineSpan span;
    span.kind = reader.wordIndex("kind", {"kernel", "allocation"}) == 0
                    ? TimelineSpan::Kind::Kernel
                    : TimelineSpan::Kind::Allocation;
    span.name = readText(reader, "name");
    span.startNs = reader.signedCount("start_ns");
    span.endNs = reader.signedCount("end_ns");
    span.bytes = reader.optionalCount("bytes").value_or(0);
    return span;
}

// Files keep a start and a duration; the engine's sample a start and an end.
BandwidthSample readSample(const JsonReader& reader) {
    BandwidthSample sample;
    sample.startNs = reader.signedCount("time_ns");
    sample.endNs = sample.startNs + reader.signedCount("duration_ns");
    sample.readBytesPerSecond = reader.number("read_bytes_per_second");
    sample.writeBytesPerSecond = reader.number("write_bytes_per_second");
    return sample;
}

template <typename Items, typename ReadOne>
Items readArray(const JsonReader& reader, const char* key, bool required, qsizetype limit,
                ReadOne readOne) {
    const std::optional<QJsonArray> array =
        required ? std::optional<QJsonArray>(reader.array(key)) : reader.optionalArray(key);
    Items items;
    if (!array) return items;
    if (array->size() > limit)
        reader.fail(
            key,
            QStringLiteral("%1 elements, more than the limit of %2").arg(array->size()).arg(limit));
    items.reserve(array->size());
    for (qsizetype i = 0; i < array->size(); ++i)
        items.push_back(readOne(reader.element(*array, key, i)));
    return items;
}

Problem readProblem(const JsonReader& reader) {
    Problem problem;
    const JsonReader dimensions = reader.object("dimensions");
    for (const QString& name : dimensions.keys())
        problem.dimensions[name.toStdString()] = dimensions.count(name.toUtf8().constData());
    const QString dtype = reader.string("dtype");
    const std::optional<DType> parsed = parseDType(dtype.toStdString());
    if (!parsed) reader.fail("dtype", QStringLiteral("\"%1\" is not a known data type").arg(dtype));
    problem.dtype = *parsed;
    const JsonReader tuning = reader.object("tuning");
    for (const QString& name : tuning.keys())
        problem.tuning[name.toStdString()] = tuning.integer(name.toUtf8().constData());
    return problem;
}

VariantResult readRun(const JsonReader& reader, int version) {
    VariantResult run;
    run.pipeline = readText(reader, "pipeline");
    run.variant = readText(reader, "variant");
    if (version >= 2) {
        run.problem = readProblem(reader.object("problem"));
        // A run recorded before a tuning was declared (the production fusion's tiles) ran with
        // the value of that time.
        if (const PipelineSpec* pipeline = findPipeline(run.pipeline))
            run.problem = withRecordedTunings(*pipeline, run.problem);
        run.passesCounted = reader.boolean("passes_counted");
        run.modelFlops = reader.numberIn("model_flops", 0, kLargestAmount);
    } else {
        // Version 1: N float32 elements and a vector width; traffic counted in passes.
        run.problem.dimensions[std::string(kElementCountDimension)] = reader.count("n");
        run.problem.tuning[std::string(kVectorWidthTuning)] = reader.integer("vector");
        run.passesCounted = true;
    }
    run.backend = readBackend(reader, "backend");
    run.passes = reader.integer("passes");
    run.modelBytesRead = reader.count("model_bytes_read");
    run.modelBytesWritten = reader.count("model_bytes_written");
    run.timeMs = readDuration(reader, "time_ms");
    if (const std::optional<QJsonArray> repeats = reader.optionalArray("repeat_times_ms"))
        for (qsizetype i = 0; i < repeats->size(); ++i) {
            const QJsonValue value = repeats->at(i);
            if (!value.isDouble())
                reader.fail("repeat_times_ms", QStringLiteral("element %1 is not a number").arg(i));
            run.repeatTimesMs.push_back(
                checkDuration(reader, "repeat_times_ms", value.toDouble(), false));
        }
    run.kernelsApartTimeMs = reader.optionalNumber("kernels_apart_time_ms")
                                 ? readDuration(reader, "kernels_apart_time_ms", true)
                                 : run.timeMs;
    run.peakBytesInFlight = reader.count("peak_bytes_in_flight");
    // A failed check may have any size of error, but never a negative one.
    run.check.error = reader.numberIn("max_rel_error", 0, std::numeric_limits<double>::max());
    run.check.unwrittenElements = reader.optionalCount("unwritten_elements").value_or(0);
    if (version >= 2) {
        run.check.measure = readText(reader, "check_measure");
        run.check.tolerance = reader.number("check_tolerance");
        run.outputElements = reader.count("output_elements");
    } else {
        run.check.measure = "max relative error";
        run.check.tolerance = 1e-5;  // version 1's float32 tolerance
        run.outputElements = run.problem.dimension(kElementCountDimension);
    }
    // Recordings made before outputs were sampled compared every element.
    run.check.comparedElements =
        reader.optionalCount("compared_elements").value_or(run.outputElements);
    run.check.ok = reader.boolean("check_ok");
    run.kernels =
        readArray<std::vector<KernelResult>>(reader, "kernels", true, kMaxKernels, readKernel);
    run.allocations = readArray<std::vector<AllocationEvent>>(reader, "allocations", false,
                                                              kMaxEvents, readAllocation);
    run.timeline =
        readArray<std::vector<TimelineSpan>>(reader, "timeline", false, kMaxEvents, readSpan);
    run.samples =
        readArray<std::vector<BandwidthSample>>(reader, "samples", false, kMaxSamples, readSample);
    run.samplesBeforeThinning =
        static_cast<std::int64_t>(reader.optionalCount("samples_before_thinning").value_or(0));
    if (const std::optional<JsonReader> sources = reader.optionalObject("data_source")) {
        run.timingSource = readSource(*sources, "timing");
        run.countersSource = readOptionalSource(*sources, "counters");
        run.samplesSource = readOptionalSource(*sources, "samples");
    } else {
        // Files older than the data_source key: the backend says where the timing came from.
        run.timingSource = run.backend == BackendKind::Cpu ? MeasurementSource::CpuBackend
                                                           : MeasurementSource::TimingModel;
    }
    return run;
}

// The limits on the runs together, past the limits on each.
void checkTotals(const JsonReader& reader, const std::vector<VariantResult>& runs) {
    qsizetype events = 0, samples = 0;
    for (const VariantResult& run : runs) {
        events += static_cast<qsizetype>(run.timeline.size() + run.allocations.size());
        samples += static_cast<qsizetype>(run.samples.size());
    }
    if (events > kMaxEventsInAll)
        reader.fail("runs", QStringLiteral("%1 timeline spans and allocations in all, more than "
                                           "the limit of %2")
                                .arg(events)
                                .arg(kMaxEventsInAll));
    if (samples > kMaxSamples)
        reader.fail("runs", QStringLiteral("%1 samples in all, more than the limit of %2")
                                .arg(samples)
                                .arg(kMaxSamples));
}

Recording readRecording(const JsonReader& reader) {
    Recording recording;
    recording.format = reader.string("format");
    if (recording.format != QLatin1String(kRecordingFormat))
        reader.fail("format", QStringLiteral("is \"%1\", not \"%2\": this is not a FuseScope "
                                             "recording")
                                  .arg(recording.format, QLatin1String(kRecordingFormat)));
    recording.version = reader.integer("version");
    if (recording.version > kRecordingVersion)
        reader.fail("version", QStringLiteral("%1 is newer than this FuseScope reads (%2): "
                                              "update FuseScope to open it")
                                   .arg(recording.version)
                                   .arg(kRecordingVersion));
    if (recording.version < 1)
        reader.fail("version", QStringLiteral("%1 is not a valid version").arg(recording.version));
    recording.createdAt = reader.optionalString("created_at").value_or(QString());
    recording.producer = reader.optionalString("producer").value_or(QString());
    recording.description =
        reader.optionalString("description", kMaxFreeTextLength).value_or(QString());
    recording.device = readDevice(reader.object("device"));
    const JsonReader roofline = reader.object("copy_roofline");
    recording.roofline.timeMs = readDuration(roofline, "time_ms", true);
    recording.roofline.bytesMoved = roofline.count("bytes_moved");
    // Optional: recordings before the compute roof, and runs without one, have none.
    if (const std::optional<JsonReader> roof = reader.optionalObject("compute_roof")) {
        ComputeRoofResult record;
        record.timeMs = roof->number("time_ms");
        record.flops = roof->number("flops");
        record.description = readOptionalText(*roof, "description");
        if (!(record.timeMs > 0)) roof->fail("time_ms", QStringLiteral("must be positive"));
        if (!(record.flops > 0)) roof->fail("flops", QStringLiteral("must be positive"));
        recording.computeRoof = record;
    }
    recording.counterStatus = reader.optionalString("counter_status", kMaxFreeTextLength)
                                  .value_or(QString())
                                  .toStdString();
    recording.runs = readArray<std::vector<VariantResult>>(
        reader, "runs", true, kMaxRuns,
        [&](const JsonReader& run) { return readRun(run, recording.version); });
    recording.variantsNotRun = readArray<std::vector<VariantNotRun>>(
        reader, "variants_not_run", false, kMaxRuns, [](const JsonReader& entry) {
            return VariantNotRun{entry.string("variant").toStdString(),
                                 entry.string("reason", kMaxFreeTextLength).toStdString()};
        });
    checkTotals(reader, recording.runs);
    recording.pipelineDescriptions = readArray<QVector<PipelineDescription>>(
        reader, "pipelines", false, kMaxRuns, readPipelineDescription);
    recording.replayed = true;
    return recording;
}

}  // namespace

Result<Recording> recordingFromJson(const QByteArray& json, const QString& sourceName) {
    const auto failure = [&](const QString& problem) {
        return Status(ErrorCode::InvalidArgument,
                      QStringLiteral("%1: %2").arg(sourceName, problem).toStdString());
    };
    if (Status shape = checkJsonShape(json); !shape)
        return failure(QString::fromStdString(shape.message()));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return failure(QStringLiteral("not JSON (%1 at byte %2)")
                           .arg(parseError.errorString())
                           .arg(parseError.offset));
    if (!document.isObject())
        return failure(
            QStringLiteral("not a FuseScope recording (the top level is not an object)"));
    Recording recording;
    try {
        recording = readRecording(JsonReader(document.object(), QString()));
    } catch (const JsonFieldError& error) {
        return failure(QString::fromStdString(error.what()));
    }
    return recording;
}

Result<Recording> loadRecording(const QString& path) {
    Result<QByteArray> bytes = readFileLimited(path);
    if (!bytes) return bytes.status();
    return recordingFromJson(*bytes, path);
}

}  // namespace fusescope::model
