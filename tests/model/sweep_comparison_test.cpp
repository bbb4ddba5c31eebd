// Two size sweeps compared: the ratios at the sizes both measured, hand-computed from two small
// sweep files the test writes in its temporary folder; sizes and variants only one sweep has; the
// chart of both; and the refusals (sweeps of different pipelines, a sweep against runs).
#include <gtest/gtest.h>

#include <QJsonObject>

#include "model/comparison.h"
#include "model/sweep_comparison.h"
#include "model/sweep_json.h"
#include "support/folder_test.h"

using namespace fusescope;
using namespace fusescope::model;

namespace {

SweepPoint point(std::uint64_t n, double bytesPerElement, double timeMs) {
    SweepPoint made;
    made.n = n;
    made.bytes = static_cast<std::uint64_t>(static_cast<double>(n) * bytesPerElement);
    made.launches = 1;
    made.timeMs = timeMs;
    made.checkOk = true;
    return made;
}

// A variant with one time per size (ms), 12 bytes per element as SwiGLU fused.
SweepSeries series(const std::string& variant, const std::vector<std::uint64_t>& sizes,
                   const std::vector<double>& timesMs) {
    SweepSeries made;
    made.variant = variant;
    made.title = variant;
    made.launches = 1;
    made.bytesPerElement = 12.0;
    for (std::size_t i = 0; i < sizes.size(); ++i)
        made.points.push_back(point(sizes[i], made.bytesPerElement, timesMs[i]));
    made.fitError = "too few sizes for a fit";
    return made;
}

class SweepComparisonTest : public testsupport::FolderTest {
  protected:
    // Written as `fusescope-cli sweep` writes it, then read back through the one loader.
    SweepFile written(const char* name, const SweepReport& report, const QString& created) {
        SweepRequest request;
        request.pipeline = report.pipeline;
        request.settings.repeats = report.repeats;
        QJsonObject document = sweepDocument(report, request, QStringLiteral("test"));
        document.insert(QStringLiteral("created"), created);
        const QString file = path(name);
        EXPECT_TRUE(saveSweepDocument(document, file));
        Result<SweepFile> loaded = loadSweepFile(file);
        EXPECT_TRUE(loaded) << loaded.status().message();
        return loaded ? *loaded : SweepFile{};
    }

    // A: a GPU, N = 4096, 8192, 16384; fused and scratch.
    SweepFile gpuSweep() {
        SweepReport report;
        report.pipeline = "swiglu";
        report.vectorWidth = 4;
        report.repeats = 20;
        report.device.backend = BackendKind::Cuda;
        report.device.name = "Test GPU";
        report.device.l2CacheBytes = 1 << 20;
        report.sizes = {4096, 8192, 16384};
        report.series = {series("fused", {4096, 8192, 16384}, {0.010, 0.012, 0.016}),
                         series("scratch", {4096, 8192, 16384}, {0.020, 0.024, 0.032})};
        LaunchBandwidthFit fit;
        fit.overheadUs = 5.0;
        fit.bandwidthGBps = 100.0;
        fit.samples = 3;
        report.series[0].fit = fit;
        report.series[0].fitError.clear();
        return written("gpu.json", report, QStringLiteral("2026-11-30T10:00:00Z"));
    }

    // B: the CPU backend, N = 8192, 16384, 32768; fused and two_launch.
    SweepFile cpuSweep(const std::string& pipeline = "swiglu") {
        SweepReport report;
        report.pipeline = pipeline;
        report.vectorWidth = 4;
        report.repeats = 5;
        report.device.backend = BackendKind::Cpu;
        report.device.name = "Test CPU";
        report.device.multiprocessors = 2;
        report.sizes = {8192, 16384, 32768};
        report.series = {series("two_launch", {8192, 16384, 32768}, {0.1, 0.2, 0.4}),
                         series("fused", {8192, 16384, 32768}, {0.048, 0.080, 0.160})};
        LaunchBandwidthFit fit;
        fit.overheadClamped = true;
        fit.bandwidthGBps = 25.0;
        fit.samples = 3;
        report.series[1].fit = fit;
        report.series[1].fitError.clear();
        return written("cpu.json", report, QStringLiteral("2026-12-01T09:30:00Z"));
    }
};

}  // namespace

TEST_F(SweepComparisonTest, RatiosAtTheSizesBothMeasured) {
    const Result<SweepComparison> compared = compareSweeps(gpuSweep(), cpuSweep());
    ASSERT_TRUE(compared) << compared.status().message();
    ASSERT_EQ(compared->variants.size(), 1);
    const SweepVariantComparison& fused = compared->variants.front();
    EXPECT_EQ(fused.variant, QStringLiteral("fused"));
    // Every N either measured, ascending: 4096 only in A, 32768 only in B.
    ASSERT_EQ(fused.sizes.size(), 4);
    EXPECT_EQ(fused.sizes[0].n, 4096.0);
    EXPECT_TRUE(fused.sizes[0].timeMsA && !fused.sizes[0].timeMsB);
    EXPECT_FALSE(fused.sizes[0].timeRatio());
    EXPECT_EQ(fused.sizes[3].n, 32768.0);
    EXPECT_TRUE(!fused.sizes[3].timeMsA && fused.sizes[3].timeMsB);
    EXPECT_FALSE(fused.sizes[3].gbpsRatio());

    // N = 8192: 98,304 bytes; A 0.012 ms (8.192 GB/s), B 0.048 ms (2.048 GB/s).
    const SweepSizeComparison& at8k = fused.sizes[1];
    EXPECT_EQ(at8k.n, 8192.0);
    ASSERT_TRUE(at8k.inBoth());
    EXPECT_NEAR(*at8k.gbpsA, 8.192, 1e-9);
    EXPECT_NEAR(*at8k.gbpsB, 2.048, 1e-9);
    EXPECT_NEAR(*at8k.timeRatio(), 4.0, 1e-9);   // 0.048 / 0.012
    EXPECT_NEAR(*at8k.gbpsRatio(), 0.25, 1e-9);  // 2.048 / 8.192
    // N = 16384: 0.080 / 0.016 = 5; the bandwidth the inverse, the bytes being the same.
    const SweepSizeComparison& at16k = fused.sizes[2];
    EXPECT_NEAR(*at16k.timeRatio(), 5.0, 1e-9);
    EXPECT_NEAR(*at16k.gbpsRatio(), 0.2, 1e-9);
    EXPECT_EQ(formatRatio(at16k.timeRatio()), QStringLiteral("5.00x"));

    EXPECT_EQ(compared->sharedSizes, (QVector<double>{8192, 16384}));
    EXPECT_EQ(compared->sizesOnlyInA, (QVector<double>{4096}));
    EXPECT_EQ(compared->sizesOnlyInB, (QVector<double>{32768}));
    EXPECT_EQ(compared->variantsOnlyInA, QStringList{QStringLiteral("scratch")});
    EXPECT_EQ(compared->variantsOnlyInB, QStringList{QStringLiteral("two_launch")});
}

TEST_F(SweepComparisonTest, FitsOfBothSideBySide) {
    const Result<SweepComparison> compared = compareSweeps(gpuSweep(), cpuSweep());
    ASSERT_TRUE(compared);
    const SweepVariantComparison& fused = compared->variants.front();
    ASSERT_TRUE(fused.fitA && fused.fitB);
    EXPECT_DOUBLE_EQ(fused.fitA->overheadUs, 5.0);
    EXPECT_TRUE(fused.fitB->overheadClamped);
    EXPECT_NEAR(*fused.fitBandwidthRatio(), 0.25, 1e-12);  // 25 / 100 GB/s
}

TEST_F(SweepComparisonTest, NoFitRatioWithoutBothFits) {
    SweepFile gpu = gpuSweep();
    gpu.report.series[0].fit.reset();
    gpu.report.series[0].fitError = "no fit here";
    const Result<SweepComparison> compared = compareSweeps(gpu, cpuSweep());
    ASSERT_TRUE(compared);
    const SweepVariantComparison& fused = compared->variants.front();
    EXPECT_FALSE(fused.fitA);
    EXPECT_EQ(fused.fitErrorA, QStringLiteral("no fit here"));
    EXPECT_FALSE(fused.fitBandwidthRatio());
}

TEST_F(SweepComparisonTest, LabelsNameDeviceBackendAndDay) {
    const Result<SweepComparison> compared = compareSweeps(gpuSweep(), cpuSweep());
    ASSERT_TRUE(compared);
    EXPECT_EQ(compared->labelA, QStringLiteral("Test GPU (CUDA), 2026-11-30"));
    EXPECT_EQ(compared->labelB, QStringLiteral("Test CPU (CPU backend, 2 threads), 2026-12-01"));
}

TEST_F(SweepComparisonTest, ChartHasBothSweepsOnOneScale) {
    const Result<SweepComparison> compared = compareSweeps(gpuSweep(), cpuSweep());
    ASSERT_TRUE(compared);
    const SweepChartData& chart = compared->chart;
    ASSERT_TRUE(chart.comparesRecordings());
    EXPECT_EQ(chart.recordings[0].name, QStringLiteral("A: Test GPU (CUDA), 2026-11-30"));
    EXPECT_EQ(chart.recordings[1].name, QStringLiteral("B: Test CPU (CPU), 2026-12-01"));
    EXPECT_EQ(chart.recordings[0].l2CacheBytes, double(1 << 20));
    // The variant both swept, once per recording, with that recording's points.
    ASSERT_EQ(chart.series.size(), 2);
    EXPECT_EQ(chart.series[0].name, QStringLiteral("fused"));
    EXPECT_EQ(chart.series[0].recording, 0);
    EXPECT_EQ(chart.series[0].points.size(), 3);
    EXPECT_EQ(chart.series[0].points[0].n, 4096.0);
    EXPECT_EQ(chart.series[1].name, QStringLiteral("fused"));
    EXPECT_EQ(chart.series[1].recording, 1);
    EXPECT_DOUBLE_EQ(chart.series[1].points[2].timeMs, 0.160);
}

TEST_F(SweepComparisonTest, RefusesSweepsOfDifferentPipelines) {
    const Result<SweepComparison> compared = compareSweeps(gpuSweep(), cpuSweep("affine"));
    ASSERT_FALSE(compared);
    const QString message = QString::fromStdString(compared.status().message());
    EXPECT_TRUE(message.contains(QStringLiteral("swiglu"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("affine"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("same pipeline"))) << message.toStdString();
}

TEST_F(SweepComparisonTest, RefusesARunAgainstASweepInWords) {
    EXPECT_TRUE(compareKindsRefusal(ComparedKind::Runs, ComparedKind::Runs, "b.json").isEmpty());
    EXPECT_TRUE(
        compareKindsRefusal(ComparedKind::SizeSweep, ComparedKind::SizeSweep, "b.json").isEmpty());
    const QString sweepAgainstRuns =
        compareKindsRefusal(ComparedKind::Runs, ComparedKind::SizeSweep, "sweep.json");
    EXPECT_TRUE(sweepAgainstRuns.startsWith(QStringLiteral("sweep.json is a size sweep")))
        << sweepAgainstRuns.toStdString();
    EXPECT_TRUE(sweepAgainstRuns.contains(QStringLiteral("two size sweeps")));
    const QString runsAgainstSweep =
        compareKindsRefusal(ComparedKind::SizeSweep, ComparedKind::Runs, "runs.json");
    EXPECT_TRUE(runsAgainstSweep.startsWith(QStringLiteral("runs.json is a recording of runs")))
        << runsAgainstSweep.toStdString();
}
