#include <gtest/gtest.h>

#include <map>

#include "model/captions.h"
#include "model/format.h"
#include "model/recording_description.h"
#include "pipelines/registry.h"

using namespace fusescope::model;

TEST(Format, BytesInDecimalUnitsWithThreeDigits) {
    EXPECT_EQ(formatBytes(0), "0 B");
    EXPECT_EQ(formatBytes(999), "999 B");
    EXPECT_EQ(formatBytes(1000), "1.00 kB");
    EXPECT_EQ(formatBytes(1073741824ull), "1.07 GB");
    EXPECT_EQ(formatBytes(5368709120ull), "5.37 GB");
    EXPECT_EQ(formatBytes(62914560ull), "62.9 MB");
    EXPECT_EQ(formatBytes(150754820096ull), "151 GB");
}

// N = 2^62 float32 arrays showed as "0 B": the product wrapped around 64 bits.
// One wording for "how many times" on every screen: the verdict, the stage, the lesson's reveal.
TEST(Format, TimesKeepTwoDecimalsBelowTenAndNoneAbove) {
    EXPECT_EQ(formatTimes(1.124), "1.12x");
    EXPECT_EQ(formatTimes(9.994), "9.99x");
    EXPECT_EQ(formatTimes(9.996), "10x");
    EXPECT_EQ(formatTimes(67.98), "68x");
    EXPECT_EQ(formatTimes(144.72), "145x");
    EXPECT_EQ(formatTimes(67.98, QChar(0x00D7)), QStringLiteral("68\u00D7"));
}

TEST(Format, BytesOfElementsPastSixtyFourBitsAreNone) {
    EXPECT_EQ(bytesForElements(quint64{1} << 61, 4), quint64{1} << 63);
    EXPECT_FALSE(bytesForElements(quint64{1} << 62, 4).has_value());
    EXPECT_FALSE(bytesForElements(~quint64{0}, 2).has_value());
    EXPECT_EQ(formatBytes(quint64{1} << 63), "9.22 EB");
}

TEST(Format, ControlCharactersAreEscapedForTheTerminal) {
    EXPECT_EQ(escapeControlCharacters(QStringLiteral("H200\x1b[31m red\x07")),
              QStringLiteral("H200\\x1b[31m red\\x07"));
    EXPECT_EQ(escapeControlCharacters(QStringLiteral("a\tb\nc µs │")),
              QStringLiteral("a\tb\nc µs │"));  // tabs, newlines and Unicode stay
    EXPECT_EQ(escapeControlCharacters(QStringLiteral("\r\x7f\u009b")),
              QStringLiteral("\\x0d\\x7f\\x9b"));
}

TEST(Format, CountsGroupThousands) {
    EXPECT_EQ(formatCount(268435456), "268,435,456");
    EXPECT_EQ(formatCount(7), "7");
}

TEST(Format, TimesRatesAndErrors) {
    EXPECT_EQ(formatMilliseconds(0.7634), "0.763");
    EXPECT_EQ(formatMilliseconds(12.345), "12.3");
    EXPECT_EQ(formatMilliseconds(1234.5), "1,235");
    EXPECT_EQ(formatDuration(0.7634), "763 µs");
    EXPECT_EQ(formatDuration(12.345), "12.3 ms");
    EXPECT_EQ(formatDuration(1500), "1.50 s");
    EXPECT_EQ(formatGBps(4210.54), "4,210.5");
    EXPECT_EQ(formatGBps(0.39512), "0.395");
    EXPECT_EQ(formatPercent(0.8951), "89.5%");
    EXPECT_EQ(formatRelativeError(0.0), "0");
    EXPECT_EQ(formatRelativeError(1.19e-7), "1.2e-07");
}

namespace {

Recording h200Recording() {
    Recording recording;
    recording.device.name = "NVIDIA H200";
    VariantResult run;
    run.problem.dimensions["N"] = 268435456;
    run.problem.tuning["vector"] = 4;
    run.timingSource = MeasurementSource::TimingModel;
    recording.runs = {run, run};
    return recording;
}

}  // namespace

TEST(Captions, NameDeviceSizeDtypeVectorAndSource) {
    const Recording recording = h200Recording();
    EXPECT_EQ(captionFor(recording, recording.runs[0]),
              "NVIDIA H200 · N = 268,435,456 · float32 · vector 4 · timing + model");
    EXPECT_EQ(captionFor(recording),
              "NVIDIA H200 · N = 268,435,456 · float32 · vector 4 · timing + model");
}

TEST(Captions, CountersReplayAndMixedRunsShow) {
    Recording recording = h200Recording();
    recording.runs[1].problem.tuning["vector"] = 1;
    recording.runs[1].countersSource = MeasurementSource::Counters;
    recording.replayed = true;
    EXPECT_EQ(captionFor(recording, recording.runs[1]),
              "NVIDIA H200 · N = 268,435,456 · float32 · vector 1 · measured counters, replayed");
    EXPECT_EQ(captionFor(recording).toStdString(),
              "NVIDIA H200 · N = 268,435,456 · float32 · vector 4 / 1 · timing + model, replayed / "
              "measured counters, replayed");
}

TEST(Captions, CpuRunsNameTheModelThreadsAndInstructionSet) {
    Recording recording;
    recording.device.backend = fusescope::BackendKind::Cpu;
    recording.device.name = "Intel(R) Xeon(R) Processor";
    recording.device.multiprocessors = 2;
    recording.device.runtimeVersion = "AVX2+FMA";
    VariantResult run;
    run.problem.dimensions["N"] = 16777216;
    run.problem.tuning["vector"] = 4;
    run.timingSource = MeasurementSource::CpuBackend;
    recording.runs = {run};
    EXPECT_EQ(captionFor(recording, run),
              "Intel(R) Xeon(R) Processor (2 threads, AVX2+FMA) · N = 16,777,216 · float32 · "
              "vector 4 · CPU backend");
    recording.device.multiprocessors = 1;
    EXPECT_EQ(deviceLabel(recording.device), "Intel(R) Xeon(R) Processor (1 thread, AVX2+FMA)");
    recording.device.backend = fusescope::BackendKind::Cuda;
    recording.device.runtimeVersion = "13.0";
    EXPECT_EQ(deviceLabel(recording.device), "Intel(R) Xeon(R) Processor");
}

TEST(Captions, CheckScopeSaysWhenTheReferenceWasSampled) {
    VariantResult run;
    run.outputElements = 4096;
    run.check.comparedElements = 4096;
    EXPECT_EQ(checkScope(run), "over all 4,096 elements");
    run.outputElements = 16777216;
    run.check.comparedElements = 1048576;
    EXPECT_EQ(checkScope(run),
              "over 1,048,576 sampled elements of 16,777,216; every element checked for being "
              "written");
}

TEST(DataSourceKeys, RoundTripAndRejectUnknown) {
    for (DataSource source : {DataSource::Counters, DataSource::TimingModel, DataSource::CpuBackend,
                              DataSource::Replay}) {
        EXPECT_EQ(dataSourceFromKey(dataSourceKey(source)), source);
        EXPECT_FALSE(dataSourceLabel(source).isEmpty());
    }
    EXPECT_EQ(dataSourceKey(DataSource::TimingModel), "timing+model");
    EXPECT_FALSE(dataSourceFromKey("guess").has_value());
}

namespace {

// A CPU run of the MLP's classroom problem with its default tiles, as the registry gives them.
VariantResult mlpRun(const char* variant, int rows) {
    const fusescope::PipelineSpec& mlp = *fusescope::findPipeline("mlp");
    VariantResult run;
    run.pipeline = "mlp";
    run.variant = variant;
    run.problem = fusescope::withPreset(mlp.defaultProblem(), *mlp.findPreset("classroom"));
    run.problem.dimensions["M"] = static_cast<std::uint64_t>(rows);
    run.timingSource = MeasurementSource::CpuBackend;
    return run;
}

}  // namespace

// The cuBLAS variants take no tiles: their captions name none; the lesson's kernel and the
// production fusion name their own, and the recording's caption each with its own runs' values.
TEST(Captions, NameOnlyTheTilesEachVariantTakes) {
    const fusescope::PipelineSpec& mlp = *fusescope::findPipeline("mlp");
    // " · TILE_M/I 128/128": the parameters named together, at their declared defaults but
    // where given.
    const auto shown = [&](const QString& titles, std::initializer_list<const char*> names,
                           std::map<std::string, int> values = {}) {
        QStringList shownValues;
        for (const char* name : names)
            shownValues << QString::number(values.count(name) ? values[name]
                                                              : mlp.findTuning(name)->defaultValue);
        return QStringLiteral(" · %1 %2").arg(titles, shownValues.join(QLatin1Char('/')));
    };
    Recording recording;
    recording.device.name = "NVIDIA H200";
    recording.runs = {mlpRun("unfused", 512), mlpRun("lesson_fused", 512),
                      mlpRun("production", 512), mlpRun("merged_gate_up", 512)};
    const int otherBlockM = mlp.findTuning("block_m")->defaultValue == 64 ? 32 : 64;
    recording.runs[1].problem.tuning["block_m"] = otherBlockM;
    const QString lesson =
        shown(QStringLiteral("BLOCK_M/N/H/I"), {"block_m", "block_n", "block_h", "block_i"},
              {{"block_m", otherBlockM}});
    const QString production = shown(QStringLiteral("TILE_M/I"), {"tile_m", "tile_i"});
    const QString problem = "M = 512, H = 1,024, I = 2,816 · bfloat16";
    EXPECT_EQ(problemLabel(recording.runs[0]), problem);
    EXPECT_EQ(problemLabel(recording.runs[3]), problem);
    EXPECT_EQ(captionFor(recording, recording.runs[0]),
              "NVIDIA H200 · " + problem + " · CPU backend");
    EXPECT_EQ(problemLabel(recording.runs[1]), problem + lesson);
    EXPECT_EQ(problemLabel(recording.runs[2]), problem + production);
    // A tile the unfused run carries (every run records every value) is not its tile: the
    // recording lists the lesson kernel's BLOCK_M alone, not two values.
    EXPECT_EQ(captionFor(recording),
              "NVIDIA H200 · " + problem + lesson + production + " · CPU backend");
    EXPECT_EQ(recordingDescription(recording),
              "unfused, lesson_fused, production, merged_gate_up: " + problemLabel(recording));
    // Only the cuBLAS variants: no tiles at all.
    recording.runs = {mlpRun("unfused", 512), mlpRun("merged_gate_up", 512)};
    EXPECT_EQ(captionFor(recording), "NVIDIA H200 · " + problem + " · CPU backend");
    EXPECT_FALSE(recordingDescription(recording).contains("BLOCK"));
    // The production fusion at a decode size streams weights with no tiles.
    EXPECT_EQ(problemLabel(mlpRun("production", 1)), "M = 1, H = 1,024, I = 2,816 · bfloat16");
}
