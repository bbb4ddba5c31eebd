#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "analysis/sweep.h"
#include "pipelines/registry.h"

using namespace fusescope;

namespace {

class RecordingObserver : public RunObserver {
  public:
    void progress(double fraction, std::string_view) override { fractions.push_back(fraction); }
    void variantFinished(const VariantResult& result) override {
        finishedN.push_back(result.problem.dimension("N"));
    }
    bool cancelled() const override {
        return cancelAfter > 0 && static_cast<int>(finishedN.size()) >= cancelAfter;
    }
    std::vector<double> fractions;
    std::vector<std::uint64_t> finishedN;
    int cancelAfter = 0;
};

SweepRequest smallSwigluSweep() {
    SweepRequest request;
    request.pipeline = "swiglu";
    request.variants = {"fused", "two_launch"};
    request.from = 4096;
    request.to = 70000;  // not a power of two
    request.stepsPerOctave = 1;
    request.settings.repeats = 2;
    request.settings.warmup = 1;
    return request;
}

}  // namespace

// A real sweep on the CPU backend: every point runs, checks, and moves more bytes as N grows.
TEST(CpuSweep, RunsEveryPointAndIsMonotoneInBytes) {
    auto backend = createCpuBackend(2);
    RecordingObserver observer;
    const SweepRequest request = smallSwigluSweep();
    Result<SweepReport> report = runSweep(*backend, request, observer);
    ASSERT_TRUE(report) << report.status().message();

    const std::vector<std::uint64_t> sizes{4096, 8192, 16384, 32768, 70000};
    EXPECT_EQ(report->sizes, sizes);
    EXPECT_EQ(report->pipeline, "swiglu");
    EXPECT_EQ(report->device.backend, BackendKind::Cpu);
    ASSERT_EQ(report->series.size(), 2u);
    EXPECT_EQ(report->series[0].variant, "fused");
    EXPECT_EQ(report->series[1].variant, "two_launch");
    EXPECT_EQ(report->series[0].launches, 1);
    EXPECT_EQ(report->series[1].launches, 2);
    EXPECT_DOUBLE_EQ(report->series[0].bytesPerElement, 12.0);  // 3 passes of float32
    EXPECT_DOUBLE_EQ(report->series[1].bytesPerElement, 20.0);  // 5 passes

    for (const SweepSeries& series : report->series) {
        ASSERT_EQ(series.points.size(), sizes.size()) << series.variant;
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            const SweepPoint& point = series.points[k];
            EXPECT_EQ(point.n, sizes[k]);
            EXPECT_EQ(point.launches, series.launches);
            EXPECT_EQ(static_cast<double>(point.bytes), series.bytesPerElement * sizes[k]);
            EXPECT_TRUE(point.checkOk) << series.variant << " N " << point.n;
            EXPECT_GT(point.timeMs, 0.0);
            EXPECT_GT(point.effectiveGBps(), 0.0);
            EXPECT_GT(point.rooflineGBps, 0.0);
            if (k > 0) {
                EXPECT_GT(point.bytes, series.points[k - 1].bytes);
            }
        }
        // Timing noise on a shared CPU decides whether a fit is possible; either way it says so.
        EXPECT_NE(series.fit.has_value(), !series.fitError.empty()) << series.fitError;
        if (series.fit) {
            EXPECT_GT(series.fit->bandwidthGBps, 0.0);
        }
    }

    // Progress only grows and ends at 1; every variant at every N was reported as it finished.
    ASSERT_FALSE(observer.fractions.empty());
    for (std::size_t k = 1; k < observer.fractions.size(); ++k)
        EXPECT_GE(observer.fractions[k], observer.fractions[k - 1] - 1e-12);
    EXPECT_DOUBLE_EQ(observer.fractions.back(), 1.0);
    EXPECT_EQ(observer.finishedN.size(), sizes.size() * 2);
    EXPECT_EQ(observer.finishedN.front(), 4096u);
    EXPECT_EQ(observer.finishedN.back(), 70000u);
}

TEST(CpuSweep, CancelStopsBetweenPoints) {
    auto backend = createCpuBackend(2);
    RecordingObserver observer;
    observer.cancelAfter = 1;
    Result<SweepReport> report = runSweep(*backend, smallSwigluSweep(), observer);
    ASSERT_FALSE(report);
    EXPECT_EQ(report.status().code(), ErrorCode::Cancelled);
    EXPECT_LE(observer.finishedN.size(), 2u);
}

TEST(CpuSweep, EmptyVariantListSweepsEveryVariant) {
    auto backend = createCpuBackend(2);
    SweepRequest request = smallSwigluSweep();
    request.variants.clear();
    request.to = 8192;
    RecordingObserver observer;
    Result<SweepReport> report = runSweep(*backend, request, observer);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_EQ(report->series.size(), findPipeline("swiglu")->variants.size());
}

TEST(SweepSizes, DefaultEndIsCappedAndFitsInMemory) {
    auto backend = createCpuBackend(1);
    const DeviceInfo device = backend->describe();
    SweepRequest request = smallSwigluSweep();
    request.to = 0;
    const std::uint64_t end = defaultSweepEnd(request, device);
    EXPECT_GT(end, 0u);
    EXPECT_LE(end, kDefaultSweepEndCpu);

    DeviceInfo gpu = device;
    gpu.backend = BackendKind::Cuda;
    gpu.freeMemoryBytes = std::uint64_t{140} << 30;
    EXPECT_EQ(defaultSweepEnd(request, gpu), kDefaultSweepEndCuda);
    gpu.freeMemoryBytes = std::uint64_t{1} << 30;  // a small GPU: memory decides
    EXPECT_LT(defaultSweepEnd(request, gpu), kDefaultSweepEndCuda);
    auto sizes = sweepSizes(request, gpu);
    ASSERT_TRUE(sizes) << sizes.status().message();
    EXPECT_EQ(sizes->back(), defaultSweepEnd(request, gpu));
}

TEST(SweepSizes, RejectsBadRequestsWithOneSentence) {
    auto backend = createCpuBackend(1);
    const DeviceInfo device = backend->describe();
    const SweepRequest good = smallSwigluSweep();
    ASSERT_TRUE(sweepSizes(good, device));

    // Each case changes one thing of the good request.
    struct BadRequest {
        std::function<void(SweepRequest&)> change;
        ErrorCode code;
        std::string words;
    };
    const std::vector<BadRequest> cases = {
        {[](SweepRequest& r) { r.pipeline = "nope"; }, ErrorCode::InvalidArgument,
         "unknown pipeline"},
        {[](SweepRequest& r) {
             r.variants = {"fused", "nope"};
         },
         ErrorCode::InvalidArgument, "unknown variant"},
        {[](SweepRequest& r) { r.from = 0; }, ErrorCode::InvalidArgument, "N >= 1"},
        {[](SweepRequest& r) { r.from = 100000; }, ErrorCode::InvalidArgument, "below"},
        {[](SweepRequest& r) { r.stepsPerOctave = 0; }, ErrorCode::InvalidArgument,
         "steps per octave"},
        {[](SweepRequest& r) { r.vectorWidth = 3; }, ErrorCode::InvalidArgument,
         "vector 3 is not 1 or 4"},
        // Far more elements than fit.
        {[&device](SweepRequest& r) { r.to = device.freeMemoryBytes; }, ErrorCode::OutOfMemory,
         "at most"},
    };
    for (const BadRequest& bad : cases) {
        SweepRequest request = good;
        bad.change(request);
        auto sizes = sweepSizes(request, device);
        ASSERT_FALSE(sizes) << bad.words;
        EXPECT_EQ(sizes.status().code(), bad.code);
        EXPECT_NE(sizes.status().message().find(bad.words), std::string::npos)
            << sizes.status().message();
        EXPECT_EQ(sizes.status().message().find('\n'), std::string::npos);
    }
}

namespace {

// A series whose times follow the model exactly: 2 us per launch, 1000 GB/s, 12 bytes/element.
SweepSeries modelSeries() {
    SweepSeries series;
    series.variant = "fused";
    series.launches = 1;
    series.bytesPerElement = 12.0;
    for (int log2n = 12; log2n <= 24; ++log2n) {
        SweepPoint point;
        point.n = std::uint64_t{1} << log2n;
        point.bytes = 12 * point.n;
        point.launches = 1;
        point.timeMs = 2e-3 + static_cast<double>(point.bytes) / 1e9;  // 1e12 B/s in ms
        point.checkOk = true;
        series.points.push_back(point);
    }
    return series;
}

}  // namespace

TEST(FitSeries, IgnoresPointsWhoseOutputWasWrong) {
    SweepSeries series = modelSeries();
    series.points[5].checkOk = false;
    series.points[5].timeMs *= 50;  // a broken kernel's time says nothing
    fitSeries(series);
    ASSERT_TRUE(series.fit) << series.fitError;
    EXPECT_NEAR(series.fit->overheadUs, 2.0, 1e-9);
    EXPECT_NEAR(series.fit->bandwidthGBps, 1000.0, 1e-6);
    EXPECT_EQ(series.fit->samples, 12);
    EXPECT_TRUE(series.fitError.empty());
}

TEST(FitSeries, ResidualsShowWhereThePointsLeaveTheModel) {
    SweepSeries series = modelSeries();
    EXPECT_FALSE(series.residualAt(series.points[0]));  // no fit yet
    fitSeries(series);
    ASSERT_TRUE(series.fit);
    for (const SweepPoint& point : series.points)
        EXPECT_NEAR(*series.residualAt(point), 0.0, 1e-9) << point.n;
    // A point that ran 30% faster than the model (an array that stayed in cache) shows as -30%
    // against a fit made without it.
    SweepPoint cached = series.points[8];
    cached.timeMs *= 0.7;
    EXPECT_NEAR(*series.residualAt(cached), -0.3, 1e-9);
    EXPECT_EQ(series.regimeAt(series.points.front()), Regime::LaunchBound);
    EXPECT_EQ(series.regimeAt(series.points.back()), Regime::BandwidthBound);
}

TEST(FitSeries, SaysWhyThereIsNoFit) {
    SweepSeries series = modelSeries();
    series.points.resize(1);
    fitSeries(series);
    EXPECT_FALSE(series.fit);
    EXPECT_NE(series.fitError.find("two sizes"), std::string::npos);
    EXPECT_FALSE(series.regimeAt(series.points[0]));
}

// The sweep's fit is the robust one: sizes that beat the model (arrays in cache) are set aside
// and the residuals show them.
TEST(FitSeries, SetsAsideSizesThatBeatOneBandwidth) {
    SweepSeries series = modelSeries();
    for (std::size_t k = 6; k <= 8; ++k) series.points[k].timeMs *= 0.6;
    fitSeries(series);
    ASSERT_TRUE(series.fit) << series.fitError;
    EXPECT_EQ(series.fit->samplesSetAside, 3);
    EXPECT_NEAR(series.fit->overheadUs, 2.0, 1e-6);
    EXPECT_NEAR(series.fit->bandwidthGBps, 1000.0, 1e-3);
    EXPECT_NEAR(*series.residualAt(series.points[7]), -0.4, 1e-6);
}
