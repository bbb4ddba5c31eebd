#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "analysis/fit.h"

using namespace fusescope;

namespace {

// The model itself, so synthetic data have known parameters.
double modelTimeMs(double overheadUs, double bandwidthGBps, int launches, double bytes) {
    return launches * overheadUs * 1e-3 + bytes / (bandwidthGBps * 1e6);
}

std::vector<FitSample> synthetic(double overheadUs, double bandwidthGBps, int launches,
                                 double bytesPerElement, double noise = 0.0, unsigned seed = 7) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<double> jitter(-noise, noise);
    std::vector<FitSample> samples;
    for (int log2n = 12; log2n <= 28; ++log2n) {
        const auto n = std::uint64_t{1} << log2n;
        const double bytes = bytesPerElement * static_cast<double>(n);
        const double time = modelTimeMs(overheadUs, bandwidthGBps, launches, bytes);
        samples.push_back({n, launches, bytes, time * (1.0 + jitter(generator))});
    }
    return samples;
}

void expectWithin(double actual, double expected, double relative) {
    EXPECT_NEAR(actual, expected, std::abs(expected) * relative)
        << "actual " << actual << " expected " << expected;
}

}  // namespace

TEST(LaunchBandwidthFit, RecoversExactParameters) {
    const auto samples = synthetic(2.5, 3000.0, 2, 20.0);
    auto fit = fitLaunchBandwidth(samples);
    ASSERT_TRUE(fit) << fit.status().message();
    expectWithin(fit->overheadUs, 2.5, 1e-9);
    expectWithin(fit->bandwidthGBps, 3000.0, 1e-9);
    EXPECT_FALSE(fit->overheadClamped);
    EXPECT_LT(fit->rmsRelativeResidual, 1e-12);
    EXPECT_EQ(fit->samples, 17);
    // 2 x 2.5 us = N x 20 B / 3000 GB/s  =>  N = 5e-6 * 3e12 / 20
    expectWithin(fit->boundaryN, 5e-6 * 3000e9 / 20.0, 1e-9);
}

// Microsecond points and millisecond points both matter: noise of +-0.5% on every point still
// gives both parameters within 1%, although large-N times are ~10^4 times the small-N ones.
TEST(LaunchBandwidthFit, RecoversParametersWithin1PercentUnderNoise) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const auto samples = synthetic(4.0, 3800.0, 1, 12.0, 0.005, seed);
        auto fit = fitLaunchBandwidth(samples);
        ASSERT_TRUE(fit) << fit.status().message();
        expectWithin(fit->overheadUs, 4.0, 0.01);
        expectWithin(fit->bandwidthGBps, 3800.0, 0.01);
        EXPECT_GT(fit->rmsRelativeResidual, 0.0);
        EXPECT_LT(fit->rmsRelativeResidual, 0.005);
    }
}

TEST(LaunchBandwidthFit, RecoversCpuLikeParameters) {
    const auto samples = synthetic(30.0, 12.0, 2, 20.0, 0.003);
    auto fit = fitLaunchBandwidth(samples);
    ASSERT_TRUE(fit) << fit.status().message();
    expectWithin(fit->overheadUs, 30.0, 0.01);
    expectWithin(fit->bandwidthGBps, 12.0, 0.01);
}

// Several variants together share one overhead and one bandwidth: their launches differ, so
// there is no single regime boundary in N.
TEST(LaunchBandwidthFit, FitsMixedLaunchCountsWithoutABoundary) {
    auto samples = synthetic(3.0, 3500.0, 1, 12.0);
    const auto twoLaunch = synthetic(3.0, 3500.0, 2, 20.0);
    samples.insert(samples.end(), twoLaunch.begin(), twoLaunch.end());
    auto fit = fitLaunchBandwidth(samples);
    ASSERT_TRUE(fit) << fit.status().message();
    expectWithin(fit->overheadUs, 3.0, 1e-9);
    expectWithin(fit->bandwidthGBps, 3500.0, 1e-9);
    EXPECT_EQ(fit->boundaryN, 0.0);
    expectWithin(fit->boundaryElements(2, 20.0), 6e-6 * 3500e9 / 20.0, 1e-9);
}

TEST(LaunchBandwidthFit, ClassifiesRegimesAroundTheBoundary) {
    auto fit = fitLaunchBandwidth(synthetic(2.0, 4000.0, 1, 12.0));
    ASSERT_TRUE(fit);
    const double boundary = fit->boundaryN;
    ASSERT_GT(boundary, 0.0);
    EXPECT_EQ(fit->regimeAt(1, 12.0 * boundary / 4), Regime::LaunchBound);
    EXPECT_EQ(fit->regimeAt(1, 12.0 * boundary * 4), Regime::BandwidthBound);
    EXPECT_NEAR(fit->launchTermMs(1), fit->bandwidthTermMs(12.0 * boundary), 1e-12);
    EXPECT_STREQ(regimeName(Regime::LaunchBound), "launch");
    EXPECT_STREQ(regimeName(Regime::BandwidthBound), "bandwidth");
}

// Pure bandwidth data whose small points ran a little fast would give a negative overhead:
// the fit keeps it at zero and says so.
TEST(LaunchBandwidthFit, ClampsANegativeOverheadToZero) {
    auto samples = synthetic(0.0, 50.0, 1, 8.0);
    for (auto& sample : samples)
        if (sample.n < 65536) sample.timeMs *= 0.9;
    auto fit = fitLaunchBandwidth(samples);
    ASSERT_TRUE(fit) << fit.status().message();
    EXPECT_TRUE(fit->overheadClamped);
    EXPECT_EQ(fit->overheadUs, 0.0);
    EXPECT_EQ(fit->boundaryN, 0.0);
    expectWithin(fit->bandwidthGBps, 50.0, 0.05);
}

TEST(LaunchBandwidthFit, RejectsFewerThanTwoSamples) {
    EXPECT_FALSE(fitLaunchBandwidth({}));
    const std::vector<FitSample> one{{4096, 1, 4096 * 12.0, 0.004}};
    auto fit = fitLaunchBandwidth(one);
    ASSERT_FALSE(fit);
    EXPECT_EQ(fit.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(fit.status().message().find("two sizes"), std::string::npos);
}

TEST(LaunchBandwidthFit, RejectsSamplesThatAllHaveTheSameN) {
    const std::vector<FitSample> same{{65536, 1, 65536 * 12.0, 0.010},
                                      {65536, 1, 65536 * 12.0, 0.011},
                                      {65536, 1, 65536 * 12.0, 0.009}};
    auto fit = fitLaunchBandwidth(same);
    ASSERT_FALSE(fit);
    EXPECT_NE(fit.status().message().find("vary N"), std::string::npos);
}

TEST(LaunchBandwidthFit, RejectsNonPositiveOrNonFiniteNumbers) {
    auto samples = synthetic(2.0, 3000.0, 1, 12.0);
    for (double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
        auto withBadTime = samples;
        withBadTime[3].timeMs = bad;
        EXPECT_FALSE(fitLaunchBandwidth(withBadTime)) << bad;
        auto withBadBytes = samples;
        withBadBytes[3].bytes = bad;
        EXPECT_FALSE(fitLaunchBandwidth(withBadBytes)) << bad;
    }
    auto noLaunches = samples;
    noLaunches[0].launches = 0;
    EXPECT_FALSE(fitLaunchBandwidth(noLaunches));
}

// Times that fall as bytes grow have no bandwidth: an error, not a negative GB/s.
TEST(LaunchBandwidthFit, RejectsTimesThatDoNotGrowWithBytes) {
    std::vector<FitSample> samples;
    for (int k = 0; k < 6; ++k) {
        const auto n = std::uint64_t{4096} << k;
        samples.push_back({n, 1, 12.0 * n, 0.010 / (k + 1)});
    }
    auto fit = fitLaunchBandwidth(samples);
    ASSERT_FALSE(fit);
    EXPECT_NE(fit.status().message().find("bandwidth"), std::string::npos);
}

// Sizes whose arrays stay in a cache run faster than one DRAM bandwidth allows. Five such points
// drag the plain fit's numbers; the robust fit sets them aside and recovers both within 1%.
TEST(RobustLaunchBandwidthFit, SetsAsideCacheResidentSizes) {
    auto samples = synthetic(3.0, 3000.0, 1, 12.0, 0.003);
    int cached = 0;
    for (auto& sample : samples)
        if (sample.n >= (1u << 18) && sample.n <= (1u << 22)) {
            sample.timeMs *= 0.7;
            ++cached;
        }
    ASSERT_EQ(cached, 5);
    auto plain = fitLaunchBandwidth(samples);
    ASSERT_TRUE(plain);
    EXPECT_GT(std::abs(plain->bandwidthGBps / 3000.0 - 1.0), 0.03) << "the plain fit is dragged";

    auto robust = fitLaunchBandwidthRobust(samples);
    ASSERT_TRUE(robust) << robust.status().message();
    expectWithin(robust->overheadUs, 3.0, 0.01);
    expectWithin(robust->bandwidthGBps, 3000.0, 0.01);
    EXPECT_EQ(robust->samplesSetAside, cached);
    EXPECT_EQ(robust->samples, 17 - cached);
    EXPECT_LT(robust->rmsRelativeResidual, 0.005);
}

TEST(RobustLaunchBandwidthFit, EqualsThePlainFitOnCleanData) {
    const auto samples = synthetic(2.5, 3000.0, 2, 20.0);
    auto plain = fitLaunchBandwidth(samples);
    auto robust = fitLaunchBandwidthRobust(samples);
    ASSERT_TRUE(plain && robust);
    EXPECT_EQ(robust->samplesSetAside, 0);
    expectWithin(robust->overheadUs, plain->overheadUs, 1e-9);
    expectWithin(robust->bandwidthGBps, plain->bandwidthGBps, 1e-9);
    expectWithin(robust->boundaryN, plain->boundaryN, 1e-9);
}

TEST(RobustLaunchBandwidthFit, KeepsEverySizeUnderOrdinaryNoise) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const auto samples = synthetic(4.0, 3800.0, 1, 12.0, 0.01, seed);
        auto fit = fitLaunchBandwidthRobust(samples);
        ASSERT_TRUE(fit) << fit.status().message();
        EXPECT_EQ(fit->samplesSetAside, 0) << "seed " << seed;
        expectWithin(fit->overheadUs, 4.0, 0.02);
        expectWithin(fit->bandwidthGBps, 3800.0, 0.02);
    }
}

TEST(RobustLaunchBandwidthFit, RejectsWhatThePlainFitRejects) {
    const std::vector<FitSample> one{{4096, 1, 4096 * 12.0, 0.004}};
    EXPECT_FALSE(fitLaunchBandwidthRobust(one));
    const std::vector<FitSample> same{{65536, 1, 65536 * 12.0, 0.010},
                                      {65536, 1, 65536 * 12.0, 0.011}};
    EXPECT_FALSE(fitLaunchBandwidthRobust(same));
}
