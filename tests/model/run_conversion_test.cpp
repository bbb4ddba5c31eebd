#include <gtest/gtest.h>

#include "model/recording_json.h"
#include "model/run_conversion.h"
#include "model/version.h"
#include "runtime/runner.h"
#include "support/kernel_counts.h"

using namespace fusescope;
using namespace fusescope::model;

namespace {

// A real run of every SwiGLU variant on the CPU backend, small enough for a unit test.
RunReport cpuReport() {
    auto backend = createCpuBackend(2);
    RunRequest request;
    request.pipeline = "swiglu";
    request.problem.dimensions["N"] = 10007;  // not a multiple of 4: the scalar tail runs too
    request.problem.tuning["vector"] = 4;
    request.settings.repeats = 3;
    request.settings.warmup = 1;
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    EXPECT_TRUE(report) << report.status().message();
    return report ? *report : RunReport{};
}

}  // namespace

TEST(RunConversion, CpuReportBecomesARecordingWithTheSameNumbers) {
    const RunReport report = cpuReport();
    ASSERT_FALSE(report.variants.empty());
    ConversionOptions options;
    options.producer = producerString("fusescope-cli");
    const Recording recording = recordingFrom(report, options);

    EXPECT_EQ(recording.producer, QString("fusescope-cli ") + kFuseScopeVersion);
    EXPECT_FALSE(recording.createdAt.isEmpty());
    EXPECT_FALSE(recording.replayed);
    EXPECT_EQ(recording.device.backend, fusescope::BackendKind::Cpu);
    EXPECT_EQ(recording.device.name, report.device.name);
    EXPECT_EQ(recording.device.l2CacheBytes, report.device.l2CacheBytes);
    EXPECT_EQ(recording.device.totalMemoryBytes, report.device.totalMemoryBytes);
    EXPECT_EQ(recording.roofline.timeMs, report.roofline.timeMs);
    EXPECT_EQ(recording.roofline.bytesMoved, report.roofline.bytesMoved);

    ASSERT_EQ(recording.runs.size(), static_cast<qsizetype>(report.variants.size()));
    for (std::size_t v = 0; v < report.variants.size(); ++v) {
        const VariantResult& variant = report.variants[v];
        const RunRecord& run = recording.runs[static_cast<qsizetype>(v)];
        EXPECT_EQ(run.pipeline, "swiglu");
        EXPECT_EQ(run.variant.toStdString(), variant.variant);
        EXPECT_EQ(run.problem.dimension("N"), 10007u);
        EXPECT_EQ(run.problem.tuningValue("vector"), 4);
        EXPECT_EQ(run.backend, "cpu");
        EXPECT_EQ(run.passes, variant.passes);
        EXPECT_EQ(run.modelBytesRead, variant.modelBytesRead);
        EXPECT_EQ(run.modelBytesWritten, variant.modelBytesWritten);
        EXPECT_EQ(run.timeMs, variant.timeMs);
        EXPECT_EQ(run.repeatTimesMs.size(), 3);
        EXPECT_EQ(run.peakBytesInFlight, variant.peakBytesInFlight);
        EXPECT_EQ(run.maxRelError, variant.check.error);
        EXPECT_EQ(run.unwrittenElements, variant.check.unwrittenElements);
        EXPECT_TRUE(run.checkOk);
        EXPECT_EQ(run.dataSource.timing, DataSource::CpuBackend);
        EXPECT_FALSE(run.dataSource.counters.has_value());
        ASSERT_EQ(run.kernels.size(), static_cast<qsizetype>(variant.kernels.size()));
        for (std::size_t k = 0; k < variant.kernels.size(); ++k) {
            const KernelResult& kernel = run.kernels[static_cast<qsizetype>(k)];
            EXPECT_EQ(kernel.name, variant.kernels[k].name);
            EXPECT_EQ(kernel.timeMs, variant.kernels[k].timeMs);
            EXPECT_EQ(kernel.modelBytesRead, variant.kernels[k].modelBytesRead);
            EXPECT_FALSE(kernel.resources.known);
            EXPECT_FALSE(kernel.counters.has_value());
        }
        ASSERT_EQ(run.allocations.size(), static_cast<qsizetype>(variant.allocations.size()));
        EXPECT_FALSE(run.allocations.isEmpty());
        EXPECT_EQ(run.allocations.front().bytes, variant.allocations.front().bytes);
    }
    // The SwiGLU model: scratch moves 5 arrays, fused 3; scratch holds one array more at peak.
    const RunRecord* scratch = nullptr;
    const RunRecord* fused = nullptr;
    for (const RunRecord& run : recording.runs) {
        if (run.variant == "scratch") scratch = &run;
        if (run.variant == "fused") fused = &run;
    }
    ASSERT_TRUE(scratch && fused);
    EXPECT_EQ(scratch->passes, 5);
    EXPECT_EQ(fused->passes, 3);
    EXPECT_EQ(scratch->peakBytesInFlight - fused->peakBytesInFlight, 10007u * sizeof(float));

    // And the converted recording survives the JSON round trip.
    Result<QByteArray> json = recordingToJsonBytes(recording);
    ASSERT_TRUE(json) << json.status().message();
    Result<Recording> loaded = recordingFromJson(*json, "converted.json");
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_EQ(loaded->runs.size(), recording.runs.size());
    EXPECT_EQ(loaded->runs[0].timeMs, recording.runs[0].timeMs);
}

TEST(RunConversion, MeasuredCountersSamplesAndSourcesAreCarried) {
    VariantResult variant;
    variant.pipeline = "swiglu";
    variant.variant = "fused";
    variant.backend = BackendKind::Cuda;
    KernelResult kernel;
    kernel.name = "swiglu_fused";
    kernel.resources.known = true;
    kernel.resources.registersPerThread = 24;
    kernel.counters = testing_support::counted(100.0, 200.0, 300.0, 400.0);
    variant.kernels.push_back(kernel);
    variant.timeline.push_back({fusescope::TimelineSpan::Kind::Allocation, "out", 10, 90, 4096});
    variant.samples.push_back({0, 1000, 2e9, 1e9});  // 1 µs: 2000 and 1000 bytes
    variant.timingSource = MeasurementSource::TimingModel;
    variant.countersSource = MeasurementSource::Counters;
    variant.samplesSource = MeasurementSource::Counters;

    const RunRecord run = runRecordFrom(variant);
    EXPECT_EQ(run.backend, "cuda");
    EXPECT_EQ(run.dataSource.timing, DataSource::TimingModel);
    EXPECT_EQ(run.dataSource.counters, DataSource::Counters);
    ASSERT_EQ(run.kernels.size(), 1);
    EXPECT_TRUE(run.kernels[0].resources.known);
    EXPECT_EQ(run.kernels[0].resources.registersPerThread, 24);
    EXPECT_EQ(run.kernels[0].counters->dramBytesRead, 100.0);
    EXPECT_EQ(run.kernels[0].counters->sectorsWritten, 400.0);
    ASSERT_EQ(run.timeline.size(), 1);
    EXPECT_EQ(run.timeline[0].kind, fusescope::TimelineSpan::Kind::Allocation);
    EXPECT_EQ(run.timeline[0].bytes, 4096u);
    ASSERT_EQ(run.samples.size(), 1);
    EXPECT_EQ(run.samples[0].endNs - run.samples[0].startNs, 1000);
    EXPECT_DOUBLE_EQ(run.samples[0].readBytesPerSecond, 2e9);
    EXPECT_DOUBLE_EQ(run.samples[0].writeBytesPerSecond, 1e9);
}
