#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <tuple>
#include <vector>

#include "model/measured_counts.h"
#include "model/recording_json.h"
#include "pipelines/registry.h"
#include "support/kernel_counts.h"

using namespace fusescope;
using namespace fusescope::model;

namespace {

constexpr quint64 kTwoTo53 = quint64{1} << 53;

// Every field set to a distinct, non-default value, including 64-bit counts past 2^32.
Recording fullyPopulatedRecording() {
    Recording recording;
    recording.createdAt = "2026-11-30T05:00:00Z";
    recording.producer = "fusescope-cli 0.1.0";
    recording.device.backend = fusescope::BackendKind::Cuda;
    recording.device.name = "NVIDIA H200";
    recording.device.computeCapabilityMajor = 9;
    recording.device.computeCapabilityMinor = 0;
    recording.device.multiprocessors = 132;
    recording.device.l2CacheBytes = 62914560;
    recording.device.totalMemoryBytes = 150754820096ull;
    recording.device.freeMemoryBytes = 140000000000ull;
    recording.device.theoreticalBandwidthGBps = 4800.5;
    recording.device.driverVersion = "13.0";
    recording.device.runtimeVersion = "13.0.48";
    recording.device.memoryName = "HBM (device memory)";
    recording.device.processorsName = "SMs";
    recording.roofline.timeMs = 0.6789;
    recording.roofline.bytesMoved = 2147483648ull;
    recording.counterStatus = "counters refused: insufficient privileges";
    recording.variantsNotRun = {{"production", "production cannot run here: no TF32 path"}};

    VariantResult run;
    run.pipeline = "swiglu";
    run.variant = "scratch";
    run.problem.dimensions["N"] = 268435456;
    run.problem.tuning["vector"] = 4;
    run.backend = BackendKind::Cuda;
    run.passes = 5;
    run.modelBytesRead = 3221225472ull;
    run.modelBytesWritten = kTwoTo53;  // the largest count JSON holds exactly
    run.timeMs = 1.23456789;
    run.repeatTimesMs = {1.25, 1.2345, 1.5};
    run.kernelsApartTimeMs = 1.375;
    run.peakBytesInFlight = 4294967297ull;  // 2^32 + 1
    run.check.error = 1.1920928955078125e-07;
    run.check.unwrittenElements = 17;
    run.check.comparedElements = 1048576;
    run.check.ok = true;

    KernelResult kernel;
    kernel.name = "swiglu_scratch";
    kernel.timeMs = 1.2;
    kernel.modelBytesRead = 3221225472ull;
    kernel.modelBytesWritten = 2147483648ull;
    kernel.resources.known = true;
    kernel.resources.registersPerThread = 32;
    kernel.resources.sharedBytesPerBlock = 1024;
    kernel.resources.localBytesPerThread = 8;
    kernel.resources.blockSize = 256;
    kernel.resources.gridSize = 1056;
    kernel.resources.theoreticalOccupancy = 0.875;
    kernel.counters = testing_support::counted(3221000000.5, 2147000000.0, 100663296.0, 67108864.0);
    kernel.counters->l2SectorsRead = 1234.0;
    kernel.counters->l2SectorsWritten = 567.0;
    kernel.counters->deviceKernels = 2;
    kernel.counters->countedLaunches = 3;
    kernel.counters->dramReadSpread = CountSpread{3220000000.25, 3300000000.0};
    kernel.counters->dramWrittenSpread = CountSpread{2147000000.0, 2147000000.0};
    kernel.counters->l2SectorsReadSpread = CountSpread{1200.0, 1300.0};
    run.kernels.push_back(kernel);
    KernelResult unmeasured = kernel;
    unmeasured.name = "second_kernel";
    unmeasured.counters.reset();
    run.kernels.push_back(unmeasured);

    using Event = fusescope::AllocationEvent;
    run.allocations.push_back(
        {Event::Kind::Allocate, "scratch", 1073741824ull, 12345, 4294967297ull});
    run.allocations.push_back(
        {Event::Kind::Free, "scratch", 1073741824ull, 99999999999ll, 3221225473ull});
    run.timeline.push_back({TimelineSpan::Kind::Kernel, "swiglu_scratch", 1000, 2000, 0});
    run.timeline.push_back(
        {TimelineSpan::Kind::Allocation, "scratch", 500, 5000000000ll, 1073741824ull});
    run.samples.push_back({1000, 11000, 3.5e12, 1.25e12});
    run.samples.push_back({11000, 21000, 3.25e12, 1.5e12});
    run.timingSource = MeasurementSource::TimingModel;
    run.countersSource = MeasurementSource::Counters;
    run.samplesSource = MeasurementSource::Counters;
    recording.runs.push_back(run);

    VariantResult cpuRun = run;
    cpuRun.variant = "fused";
    cpuRun.backend = BackendKind::Cpu;
    cpuRun.check.ok = false;
    cpuRun.kernels = {unmeasured};
    cpuRun.kernels[0].resources.known = false;
    cpuRun.kernels[0].resources.registersPerThread = 0;
    cpuRun.kernels[0].resources.sharedBytesPerBlock = 0;
    cpuRun.kernels[0].resources.localBytesPerThread = 0;
    cpuRun.kernels[0].resources.blockSize = 0;
    cpuRun.kernels[0].resources.gridSize = 0;
    cpuRun.kernels[0].resources.theoreticalOccupancy = 0.0;
    cpuRun.timeline.clear();
    cpuRun.samples.clear();
    cpuRun.timingSource = MeasurementSource::CpuBackend;
    cpuRun.countersSource.reset();
    cpuRun.samplesSource.reset();
    recording.runs.push_back(cpuRun);
    return recording;
}

// Every field each type writes, as one tuple, so that one check compares two values whole and a
// failure prints both. Copies where a field is computed (counts, problem sizes).
auto fieldsOf(const KernelResources& r) {
    return std::tie(r.known, r.registersPerThread, r.sharedBytesPerBlock, r.localBytesPerThread,
                    r.blockSize, r.gridSize, r.theoreticalOccupancy);
}

auto countsOf(const KernelResult& k) {
    return std::make_tuple(model::measured(k, &KernelCounters::dramBytesRead),
                           model::measured(k, &KernelCounters::dramBytesWritten),
                           model::measured(k, &KernelCounters::sectorsRead),
                           model::measured(k, &KernelCounters::sectorsWritten),
                           k.counters ? k.counters->deviceKernels : std::nullopt,
                           model::measured(k, &KernelCounters::l2SectorsRead),
                           model::measured(k, &KernelCounters::l2SectorsWritten),
                           k.counters ? k.counters->countedLaunches : std::nullopt,
                           k.counters ? k.counters->dramReadSpread : std::nullopt,
                           k.counters ? k.counters->dramWrittenSpread : std::nullopt,
                           k.counters ? k.counters->l2SectorsReadSpread : std::nullopt);
}

auto fieldsOf(const KernelResult& k) {
    return std::tuple_cat(std::tie(k.name, k.timeMs, k.modelBytesRead, k.modelBytesWritten),
                          fieldsOf(k.resources), countsOf(k));
}

auto fieldsOf(const AllocationEvent& e) {
    return std::tie(e.kind, e.buffer, e.bytes, e.timeNs, e.inFlightAfter);
}

auto fieldsOf(const TimelineSpan& span) {
    return std::tie(span.kind, span.name, span.startNs, span.endNs, span.bytes);
}

auto fieldsOf(const BandwidthSample& sample) {
    return std::tie(sample.startNs, sample.endNs, sample.readBytesPerSecond,
                    sample.writeBytesPerSecond);
}

auto fieldsOf(const CheckResult& check) {
    return std::tie(check.error, check.unwrittenElements, check.comparedElements, check.ok);
}

// A run's own values; its kernels, allocations, timeline and samples are compared one by one.
auto scalarFieldsOf(const VariantResult& run) {
    return std::tuple_cat(
        std::make_tuple(run.pipeline, run.variant, run.problem.dimension("N"),
                        run.problem.tuningValue("vector"), run.backend, run.passes),
        std::tie(run.modelBytesRead, run.modelBytesWritten, run.timeMs, run.repeatTimesMs,
                 run.kernelsApartTimeMs, run.peakBytesInFlight),
        fieldsOf(run.check), std::tie(run.timingSource, run.countersSource, run.samplesSource));
}

auto fieldsOf(const DeviceInfo& d) {
    return std::tie(d.backend, d.name, d.computeCapabilityMajor, d.computeCapabilityMinor,
                    d.multiprocessors, d.l2CacheBytes, d.totalMemoryBytes,
                    d.theoreticalBandwidthGBps, d.driverVersion, d.runtimeVersion);
}

template <typename Element, typename Expect>
void expectSameEach(const std::vector<Element>& a, const std::vector<Element>& b,
                    Expect expectSame) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "element " << i);
        expectSame(a[i], b[i]);
    }
}

template <typename Element>
void expectSameElements(const std::vector<Element>& a, const std::vector<Element>& b) {
    expectSameEach(a, b,
                   [](const Element& x, const Element& y) { EXPECT_EQ(fieldsOf(x), fieldsOf(y)); });
}

void expectSameRun(const VariantResult& a, const VariantResult& b) {
    EXPECT_EQ(scalarFieldsOf(a), scalarFieldsOf(b)) << a.variant;
    expectSameElements(a.kernels, b.kernels);
    expectSameElements(a.allocations, b.allocations);
    expectSameElements(a.timeline, b.timeline);
    expectSameElements(a.samples, b.samples);
}

void expectSameRecording(const Recording& a, const Recording& b) {
    EXPECT_EQ(std::tie(a.format, a.version, a.createdAt, a.producer),
              std::tie(b.format, b.version, b.createdAt, b.producer));
    EXPECT_EQ(fieldsOf(a.device), fieldsOf(b.device));
    EXPECT_EQ(std::tie(a.roofline.timeMs, a.roofline.bytesMoved, a.counterStatus),
              std::tie(b.roofline.timeMs, b.roofline.bytesMoved, b.counterStatus));
    ASSERT_EQ(a.variantsNotRun.size(), b.variantsNotRun.size());
    for (std::size_t i = 0; i < a.variantsNotRun.size(); ++i)
        EXPECT_EQ(std::tie(a.variantsNotRun[i].variant, a.variantsNotRun[i].reason),
                  std::tie(b.variantsNotRun[i].variant, b.variantsNotRun[i].reason));
    expectSameEach(a.runs, b.runs, expectSameRun);
}

// The recording saved to a file in a folder of its own and loaded back.
Result<Recording> savedAndLoaded(const Recording& recording) {
    QTemporaryDir dir;
    if (!dir.isValid()) return Status(ErrorCode::IoError, "no temporary folder");
    const QString path = dir.filePath("recording.json");
    if (const Status saved = saveRecording(recording, path); !saved) return saved;
    return loadRecording(path);
}

QJsonObject toJsonObject(const Recording& recording) {
    Result<QJsonObject> json = recordingToJson(recording);
    EXPECT_TRUE(json) << json.status().message();
    return json ? *json : QJsonObject();
}

Result<Recording> parse(const QJsonObject& root) {
    return recordingFromJson(QJsonDocument(root).toJson(), "test.json");
}

std::string loadError(const QByteArray& json) {
    Result<Recording> loaded = recordingFromJson(json, "bad.json");
    EXPECT_FALSE(loaded) << "a malformed recording loaded";
    return loaded.status().message();
}

std::string loadError(const QJsonObject& root) {
    return loadError(QJsonDocument(root).toJson());
}

}  // namespace

TEST(RecordingJson, RoundTripKeepsEveryField) {
    const Recording original = fullyPopulatedRecording();
    Result<Recording> loaded = savedAndLoaded(original);
    ASSERT_TRUE(loaded) << loaded.status().message();
    expectSameRecording(original, *loaded);
    EXPECT_FALSE(original.replayed);
    EXPECT_TRUE(loaded->replayed);
}

TEST(RecordingJson, Tf32RunsRoundTripUnderTheirOwnName) {
    Recording original = fullyPopulatedRecording();
    original.runs[0].pipeline = "mlp";
    original.runs[0].variant = "lesson_fused";
    // A complete problem: loading fills tuning values a recording lacks with the defaults.
    const PipelineSpec& mlp = *findPipeline("mlp");
    original.runs[0].problem = withPreset(mlp.defaultProblem(), *mlp.findPreset("classroom"));
    original.runs[0].problem.tuning["block_n"] = 128;
    original.runs[0].problem.dtype = DType::Tf32;
    EXPECT_EQ(toJsonObject(original)["runs"][0]["problem"]["dtype"].toString(), "tf32");
    Result<Recording> loaded = savedAndLoaded(original);
    ASSERT_TRUE(loaded) << loaded.status().message();
    ASSERT_EQ(loaded->runs.size(), original.runs.size());
    const Problem& back = loaded->runs[0].problem;
    EXPECT_EQ(back.dtype, DType::Tf32);
    EXPECT_EQ(back.dimensions, original.runs[0].problem.dimensions);
    EXPECT_EQ(back.tuning, original.runs[0].problem.tuning);
    EXPECT_EQ(back, original.runs[0].problem);
}

TEST(RecordingJson, WritesTheDocumentedKeys) {
    const QJsonObject root = toJsonObject(fullyPopulatedRecording());
    EXPECT_EQ(root["format"].toString(), "fusescope-recording");
    EXPECT_EQ(root["version"].toInt(), 2);
    EXPECT_DOUBLE_EQ(root["copy_roofline"]["gbps"].toDouble(), 2147483648.0 / (0.6789 * 1e6));
    const QJsonObject run = root["runs"][0].toObject();
    for (const char* key : {"pipeline",
                            "variant",
                            "problem",
                            "backend",
                            "passes",
                            "passes_counted",
                            "model_flops",
                            "check_measure",
                            "check_tolerance",
                            "output_elements",
                            "model_bytes_read",
                            "model_bytes_written",
                            "time_ms",
                            "repeat_times_ms",
                            "peak_bytes_in_flight",
                            "max_rel_error",
                            "unwritten_elements",
                            "compared_elements",
                            "check_ok",
                            "kernels",
                            "allocations",
                            "timeline",
                            "samples",
                            "data_source"})
        EXPECT_TRUE(run.contains(key)) << key;
    const QJsonObject kernel = run["kernels"][0].toObject();
    for (const char* key :
         {"name", "time_ms", "model_bytes_read", "model_bytes_written", "registers", "shared_bytes",
          "local_bytes", "block_size", "grid_size", "occupancy", "dram_bytes_read",
          "dram_bytes_written", "sectors_read", "sectors_written"})
        EXPECT_TRUE(kernel.contains(key)) << key;
    EXPECT_EQ(run["problem"]["dimensions"]["N"].toInteger(), 268435456);
    EXPECT_EQ(run["problem"]["dtype"].toString(), "float32");
    EXPECT_EQ(run["problem"]["tuning"]["vector"].toInt(), 4);
    EXPECT_EQ(run["data_source"]["timing"].toString(), "timing+model");
    EXPECT_EQ(run["data_source"]["counters"].toString(), "counters");
    EXPECT_FALSE(root.contains("replayed"));
}

TEST(RecordingJson, SixtyFourBitCountsSurviveExactly) {
    Recording recording = fullyPopulatedRecording();
    recording.runs[0].problem.dimensions["N"] = kTwoTo53 - 1;
    recording.runs[0].peakBytesInFlight = kTwoTo53;
    recording.device.totalMemoryBytes = (quint64{1} << 40) + 7;
    Result<QByteArray> bytes = recordingToJsonBytes(recording);
    ASSERT_TRUE(bytes) << bytes.status().message();
    EXPECT_TRUE(bytes->contains("9007199254740992")) << "2^53 written as an exact integer";
    Result<Recording> loaded = recordingFromJson(*bytes, "exact.json");
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_EQ(loaded->runs[0].problem.dimension("N"), kTwoTo53 - 1);
    EXPECT_EQ(loaded->runs[0].peakBytesInFlight, kTwoTo53);
    EXPECT_EQ(loaded->device.totalMemoryBytes, (quint64{1} << 40) + 7);
}

TEST(RecordingJson, SavingRejectsCountsAboveTwoTo53) {
    Recording recording = fullyPopulatedRecording();
    recording.runs[1].kernels[0].modelBytesRead = kTwoTo53 + 1;
    Result<QJsonObject> json = recordingToJson(recording);
    ASSERT_FALSE(json);
    EXPECT_NE(json.status().message().find("runs[1].kernels[0].model_bytes_read"),
              std::string::npos)
        << json.status().message();
    EXPECT_NE(json.status().message().find("2^53"), std::string::npos);
}

TEST(RecordingJson, LoadingRejectsCountsAboveTwoTo53) {
    QByteArray json = QJsonDocument(toJsonObject(fullyPopulatedRecording())).toJson();
    json.replace("\"N\": 268435456", "\"N\": 9007199254740993");
    const std::string message = loadError(json);
    EXPECT_NE(message.find("runs[0].problem.dimensions.N"), std::string::npos) << message;
    EXPECT_NE(message.find("2^53"), std::string::npos) << message;
}

TEST(RecordingJson, CountersAreNullWhenNotMeasuredAndNumbersWhenMeasured) {
    const QJsonObject root = toJsonObject(fullyPopulatedRecording());
    const QJsonObject measured = root["runs"][0]["kernels"][0].toObject();
    const QJsonObject unmeasured = root["runs"][0]["kernels"][1].toObject();
    for (const char* key :
         {"dram_bytes_read", "dram_bytes_written", "sectors_read", "sectors_written"}) {
        EXPECT_TRUE(measured[key].isDouble()) << key;
        EXPECT_TRUE(unmeasured[key].isNull()) << key;
    }
    // Launch resources unknown on the CPU backend: null rather than a made-up zero.
    EXPECT_TRUE(root["runs"][1]["kernels"][0]["registers"].isNull());
    EXPECT_TRUE(root["runs"][1]["data_source"]["counters"].isNull());

    Result<Recording> loaded = parse(root);
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_EQ(model::measured(loaded->runs[0].kernels[0], &KernelCounters::dramBytesRead),
              3221000000.5);
    EXPECT_FALSE(
        model::measured(loaded->runs[0].kernels[1], &KernelCounters::dramBytesRead).has_value());
    EXPECT_FALSE(loaded->runs[1].kernels[0].resources.known);
}

// A launch counted several times keeps how often and its ranges; one counted once writes none.
TEST(RecordingJson, CountedLaunchesAndTheirRangesAreWrittenOnlyWhereCounted) {
    Recording recording = fullyPopulatedRecording();
    recording.runs[0].kernels[1].counters = testing_support::counted(1.0, 2.0, 3.0, 4.0);
    const QJsonObject root = toJsonObject(recording);
    const QJsonObject several = root["runs"][0]["kernels"][0].toObject();
    EXPECT_EQ(several["counted_launches"].toInt(), 3);
    EXPECT_DOUBLE_EQ(several["dram_bytes_read_low"].toDouble(), 3220000000.25);
    EXPECT_DOUBLE_EQ(several["dram_bytes_read_high"].toDouble(), 3300000000.0);
    EXPECT_DOUBLE_EQ(several["l2_sectors_read_high"].toDouble(), 1300.0);
    const QJsonObject once = root["runs"][0]["kernels"][1].toObject();
    for (const char* key : {"counted_launches", "dram_bytes_read_low", "dram_bytes_read_high",
                            "dram_bytes_written_low", "l2_sectors_read_low"})
        EXPECT_FALSE(once.contains(key)) << key;
    Result<Recording> loaded = parse(root);
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_FALSE(loaded->runs[0].kernels[1].counters->countedLaunches);
    EXPECT_FALSE(loaded->runs[0].kernels[1].counters->dramReadSpread);
}

// A range must hold its median and come whole; a count of launches must be 2 to 9.
TEST(RecordingJson, RangesThatCannotHoldTheMedianAreRejectedByPath) {
    const auto kernelEdited = [](const char* key, const QJsonValue& value) {
        QJsonObject root = toJsonObject(fullyPopulatedRecording());
        QJsonArray runs = root["runs"].toArray();
        QJsonObject run = runs[0].toObject();
        QJsonArray kernels = run["kernels"].toArray();
        QJsonObject kernel = kernels[0].toObject();
        if (value.isUndefined())
            kernel.remove(QLatin1String(key));
        else
            kernel[QLatin1String(key)] = value;
        kernels[0] = kernel;
        run["kernels"] = kernels;
        runs[0] = run;
        root["runs"] = runs;
        return QJsonDocument(root).toJson();
    };
    std::string message = loadError(kernelEdited("dram_bytes_read_low", 3250000000.0));
    EXPECT_NE(message.find("runs[0].kernels[0].dram_bytes_read_low"), std::string::npos) << message;
    EXPECT_NE(message.find("median"), std::string::npos) << message;
    message = loadError(kernelEdited("dram_bytes_read_high", QJsonValue::Undefined));
    EXPECT_NE(message.find("dram_bytes_read_high"), std::string::npos) << message;
    message = loadError(kernelEdited("counted_launches", 1));
    EXPECT_NE(message.find("counted_launches"), std::string::npos) << message;
    message = loadError(kernelEdited("counted_launches", 10));
    EXPECT_NE(message.find("counted_launches"), std::string::npos) << message;
}

TEST(RecordingJson, RejectsTextThatIsNotJson) {
    const std::string message = loadError(QByteArray("{ \"format\": "));
    EXPECT_NE(message.find("bad.json"), std::string::npos) << message;
    EXPECT_NE(message.find("not JSON"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line";
}

TEST(RecordingJson, RejectsAnotherFormat) {
    QJsonObject root = toJsonObject(fullyPopulatedRecording());
    root["format"] = "chrome-trace";
    const std::string message = loadError(root);
    EXPECT_NE(message.find("format"), std::string::npos) << message;
    EXPECT_NE(message.find("chrome-trace"), std::string::npos) << message;
}

TEST(RecordingJson, RejectsANewerVersion) {
    QJsonObject root = toJsonObject(fullyPopulatedRecording());
    root["version"] = 99;
    const std::string message = loadError(root);
    EXPECT_NE(message.find("version"), std::string::npos) << message;
    EXPECT_NE(message.find("99"), std::string::npos) << message;
    EXPECT_NE(message.find("newer"), std::string::npos) << message;
}

TEST(RecordingJson, RejectsMissingRuns) {
    QJsonObject root = toJsonObject(fullyPopulatedRecording());
    root.remove("runs");
    const std::string message = loadError(root);
    EXPECT_NE(message.find("bad.json: runs: missing"), std::string::npos) << message;
}

TEST(RecordingJson, MistypedFieldIsNamedByItsPath) {
    QJsonObject root = toJsonObject(fullyPopulatedRecording());
    QJsonArray runs = root["runs"].toArray();
    QJsonObject run = runs[1].toObject();
    QJsonArray kernels = run["kernels"].toArray();
    QJsonObject kernel = kernels[0].toObject();
    kernel["time_ms"] = "fast";
    kernels[0] = kernel;
    run["kernels"] = kernels;
    runs[1] = run;
    root["runs"] = runs;
    const std::string message = loadError(root);
    EXPECT_NE(message.find("runs[1].kernels[0].time_ms"), std::string::npos) << message;
    EXPECT_NE(message.find("a string"), std::string::npos) << message;
}

TEST(RecordingJson, MissingRequiredRunKeyIsNamedByItsPath) {
    QJsonObject root = toJsonObject(fullyPopulatedRecording());
    QJsonArray runs = root["runs"].toArray();
    QJsonObject run = runs[0].toObject();
    run.remove("check_ok");
    runs[0] = run;
    root["runs"] = runs;
    EXPECT_NE(loadError(root).find("runs[0].check_ok: missing"), std::string::npos);
}

TEST(RecordingJson, UnknownKeysAreIgnored) {
    QJsonObject root = toJsonObject(fullyPopulatedRecording());
    root["from_the_future"] = QJsonArray{1, 2, 3};
    QJsonArray runs = root["runs"].toArray();
    QJsonObject run = runs[0].toObject();
    run["energy_joules"] = 12.5;
    runs[0] = run;
    root["runs"] = runs;
    Result<Recording> loaded = parse(root);
    ASSERT_TRUE(loaded) << loaded.status().message();
    expectSameRecording(fullyPopulatedRecording(), *loaded);
}

// A recording of the first version 2 layout, written before the measurement keys existed.
TEST(RecordingJson, RecordingWithoutIssue3KeysLoads) {
    const QByteArray json = R"({
      "format": "fusescope-recording", "version": 1,
      "device": {"backend": "cpu", "name": "Some CPU"},
      "copy_roofline": {"time_ms": 2.5, "bytes_moved": 134217728},
      "runs": [{
        "pipeline": "affine", "variant": "fused", "n": 16777216, "vector": 4, "backend": "cpu",
        "passes": 2, "model_bytes_read": 67108864, "model_bytes_written": 67108864,
        "time_ms": 3.0, "peak_bytes_in_flight": 134217728, "max_rel_error": 0.0,
        "check_ok": true,
        "kernels": [{"name": "affine_fused", "time_ms": 3.0, "model_bytes_read": 67108864,
                     "model_bytes_written": 67108864, "registers": null, "local_bytes": null}]
      }]
    })";
    Result<Recording> loaded = recordingFromJson(json, "old.json");
    ASSERT_TRUE(loaded) << loaded.status().message();
    ASSERT_EQ(loaded->runs.size(), 1);
    const VariantResult& run = loaded->runs[0];
    EXPECT_EQ(run.variant, "fused");
    EXPECT_EQ(run.problem.dimension("N"), 16777216u);
    EXPECT_EQ(run.check.comparedElements,
              run.problem.dimension("N"));  // older recordings compared every element
    EXPECT_TRUE(run.timeline.empty());
    EXPECT_TRUE(run.samples.empty());
    EXPECT_FALSE(model::measured(run.kernels[0], &KernelCounters::dramBytesRead).has_value());
    EXPECT_EQ(run.timingSource, MeasurementSource::CpuBackend);
    EXPECT_FALSE(run.countersSource.has_value());
    EXPECT_EQ(loaded->roofline.bytesMoved, 134217728u);
    EXPECT_TRUE(loaded->replayed);
}

TEST(RecordingJson, MissingFileIsNamed) {
    Result<Recording> loaded = loadRecording("/nonexistent-folder/recording.json");
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.status().message().find("/nonexistent-folder/recording.json"),
              std::string::npos);
}

TEST(RecordingJson, SavingToAnUnwritablePathFailsWithTheName) {
    const Status status = saveRecording(fullyPopulatedRecording(), "/nonexistent-folder/out.json");
    ASSERT_FALSE(status);
    EXPECT_NE(status.message().find("/nonexistent-folder/out.json"), std::string::npos);
}

// A recording in version 1 (N and a vector width per run), written by the FuseScope of before
// pipelines were described by problems, and committed: it still opens, as N float32 elements.
TEST(RecordingJson, VersionOneRecordingsStillOpen) {
    Result<Recording> loaded =
        loadRecording(QStringLiteral(FUSESCOPE_TEST_DATA_DIR "/recording-v1-swiglu-cpu.json"));
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_EQ(loaded->version, 1);
    ASSERT_EQ(loaded->runs.size(), 3);
    for (const VariantResult& run : loaded->runs) {
        EXPECT_EQ(run.pipeline, "swiglu");
        EXPECT_EQ(run.problem.dimension("N"), 4099u);
        EXPECT_EQ(run.problem.tuningValue("vector"), 4);
        EXPECT_EQ(run.problem.dtype, fusescope::DType::Float32);
        EXPECT_TRUE(run.passesCounted);
        EXPECT_EQ(run.outputElements, 4099u);
        EXPECT_EQ(run.check.measure, "max relative error");
        EXPECT_TRUE(run.check.ok);
        // Made before chains were timed back to back: its kernels were only timed apart.
        EXPECT_EQ(run.kernelsApartTimeMs, run.timeMs);
    }
    EXPECT_EQ(loaded->runs[0].passes, 5);
    // Saved again, it is a version 2 recording with the same problem.
    Result<QByteArray> bytes = recordingToJsonBytes(*loaded);
    ASSERT_TRUE(bytes) << bytes.status().message();
    Result<Recording> again = recordingFromJson(*bytes, "again.json");
    ASSERT_TRUE(again) << again.status().message();
    EXPECT_EQ(again->runs[0].problem, loaded->runs[0].problem);
}
