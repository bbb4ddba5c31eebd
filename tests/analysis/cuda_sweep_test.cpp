// The sweep on a real GPU: both regimes show, and the fit separates them. Skips, with the
// reason, where no GPU is usable.
#include <gtest/gtest.h>

#include <iostream>

#include "analysis/sweep.h"

using namespace fusescope;

TEST(CudaSweep, ShowsBothRegimesAndFitsThem) {
    const BackendAvailability availability = probeBackends();
    if (!availability.cudaUsable) GTEST_SKIP() << "no usable GPU: " << availability.cudaReason;
    Result<std::unique_ptr<Backend>> backend = createCudaBackend();
    if (!backend) GTEST_SKIP() << "the GPU could not be opened: " << backend.status().message();

    SweepRequest request;
    request.pipeline = "swiglu";
    request.variants = {"fused", "two_launch"};
    request.from = 4096;
    request.to = std::uint64_t{1} << 26;  // 256 MB per array: well past any L2
    request.settings.repeats = 10;
    RunObserver observer;
    Result<SweepReport> report = runSweep(**backend, request, observer);
    ASSERT_TRUE(report) << report.status().message();
    const DeviceInfo& device = report->device;

    for (const SweepSeries& series : report->series) {
        ASSERT_TRUE(series.fit) << series.variant << ": " << series.fitError;
        const LaunchBandwidthFit& fit = *series.fit;
        std::cout << series.variant << " on " << device.name << ": " << fit.overheadUs
                  << " us per launch, " << fit.bandwidthGBps
                  << " GB/s, regimes meet at N = " << fit.boundaryN << ", rms residual "
                  << fit.rmsRelativeResidual << ", " << fit.samplesSetAside << " sizes set aside\n";
        for (const SweepPoint& point : series.points) {
            EXPECT_TRUE(point.checkOk) << series.variant << " N " << point.n;
            std::cout << "  N " << point.n << "  " << point.timeMs * 1e3 << " us  "
                      << point.effectiveGBps() << " GB/s  " << regimeName(*series.regimeAt(point))
                      << "  vs fit " << *series.residualAt(point) << "\n";
        }
        // Launches cost time on a GPU: the overhead term is real, not clamped to zero.
        EXPECT_FALSE(fit.overheadClamped) << series.variant;
        EXPECT_GT(fit.overheadUs, 0.0);
        // The sweep spans both regimes: the boundary lies inside it.
        EXPECT_GT(fit.boundaryN, static_cast<double>(request.from)) << series.variant;
        EXPECT_LT(fit.boundaryN, static_cast<double>(request.to)) << series.variant;
        EXPECT_EQ(series.regimeAt(series.points.front()), Regime::LaunchBound);
        EXPECT_EQ(series.regimeAt(series.points.back()), Regime::BandwidthBound);
        // Far past the L2 the model's bytes go through DRAM, which has a ceiling.
        if (device.theoreticalBandwidthGBps > 0) {
            EXPECT_LT(series.points.back().effectiveGBps(), device.theoreticalBandwidthGBps);
        }
    }
    // Two launches cost more than one at small N, where launches dominate.
    ASSERT_EQ(report->series.size(), 2u);
    EXPECT_GT(report->series[1].points.front().timeMs, report->series[0].points.front().timeMs);
}
