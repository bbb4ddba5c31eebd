#include <gtest/gtest.h>

#include "model/producer.h"
#include "model/recording.h"
#include "model/recording_json.h"
#include "model/version.h"
#include "runtime/runner.h"

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

TEST(RecordingFromReport, ACpuReportBecomesARecordingOfTheSameRunsThatSurvivesJson) {
    const RunReport report = cpuReport();
    ASSERT_FALSE(report.variants.empty());
    RecordingOrigin options;
    options.producer = producerString("fusescope-cli");
    const Recording recording = recordingFrom(report, options);

    EXPECT_EQ(recording.producer, QString("fusescope-cli ") + kFuseScopeVersion);
    EXPECT_FALSE(recording.createdAt.isEmpty());
    EXPECT_FALSE(recording.replayed);
    EXPECT_EQ(recording.device.name, report.device.name);
    ASSERT_EQ(recording.runs.size(), report.variants.size());
    for (const VariantResult& run : recording.runs) {
        EXPECT_EQ(run.pipeline, "swiglu");
        EXPECT_EQ(run.backend, BackendKind::Cpu);
        EXPECT_EQ(run.timingSource, MeasurementSource::CpuBackend);
        EXPECT_FALSE(run.countersSource.has_value());
        EXPECT_TRUE(run.check.ok);
        EXPECT_EQ(run.repeatTimesMs.size(), 3u);
        // The runner counts the elements of the one output from the registry.
        EXPECT_EQ(run.outputElements, 10007u);
        EXPECT_FALSE(run.allocations.empty());
    }

    Result<QByteArray> json = recordingToJsonBytes(recording);
    ASSERT_TRUE(json) << json.status().message();
    Result<Recording> loaded = recordingFromJson(*json, "converted.json");
    ASSERT_TRUE(loaded) << loaded.status().message();
    ASSERT_EQ(loaded->runs.size(), recording.runs.size());
    EXPECT_EQ(loaded->runs[0].timeMs, recording.runs[0].timeMs);
    EXPECT_EQ(loaded->runs[0].outputElements, 10007u);
}
