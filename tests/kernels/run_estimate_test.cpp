// The estimate shown before a run against the time the run then takes on this machine.
#include <gtest/gtest.h>

#include <chrono>

#include "runtime/backend.h"
#include "runtime/run_estimate.h"
#include "runtime/runner.h"
#include "support/timing_slack.h"

using namespace fusescope;

namespace {

// Estimated and measured seconds of one run on the CPU backend.
std::pair<double, double> estimatedAndMeasured(const RunRequest& request) {
    auto backend = createCpuBackend(0);
    const Result<MachineSpeeds> speeds = measureSpeeds(*backend, request.cpuThreads);
    EXPECT_TRUE(speeds) << speeds.status().message();
    if (!speeds) return {0.0, 0.0};
    const double estimate = estimateRunSeconds(request, *speeds);
    RunObserver observer;
    const auto start = std::chrono::steady_clock::now();
    const Result<RunReport> report = runPipeline(*backend, request, observer);
    const double measured =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(report) << report.status().message();
    std::printf(
        "%s, %d threads: estimated %.3f s, measured %.3f s (%.2f GFLOP/s, %.2f GB/s, %.1f us a "
        "launch)\n",
        request.pipeline.c_str(), request.cpuThreads, estimate, measured,
        speeds->flopsPerSecond * 1e-9, speeds->bytesPerSecond * 1e-9,
        speeds->secondsPerLaunch * 1e6);
    return {estimate, measured};
}

// Within 2x in a release build. An instrumented build (FUSESCOPE_TIMING_SLACK) slows the
// calibration's loops and the run's by different amounts, so there the factor grows with it.
void expectWithinFactorTwo(std::pair<double, double> times) {
    const auto [estimate, measured] = times;
    const double factor = 2.0 * testsupport::timingSlack();
    EXPECT_GT(estimate, measured / factor)
        << "estimated " << estimate << " s, measured " << measured;
    EXPECT_LT(estimate, measured * factor)
        << "estimated " << estimate << " s, measured " << measured;
}

}  // namespace

// A fraction of a second: every MLP variant at a decode-like shape, on one thread, two, and more
// threads than most machines have cores (what does not shrink with threads grows with them:
// a 16-core host once measured 2.4 times the estimate).
class SmallMlpRun : public ::testing::TestWithParam<int> {};

TEST_P(SmallMlpRun, WithinAFactorOfTwo) {
    RunRequest request;
    request.pipeline = "mlp";
    request.problem.dimensions = {{"M", 8}, {"H", 512}, {"I", 1024}};
    request.settings.repeats = 3;
    request.settings.warmup = 1;
    request.cpuThreads = GetParam();
    expectWithinFactorTwo(estimatedAndMeasured(request));
}

INSTANTIATE_TEST_SUITE_P(RunEstimate, SmallMlpRun, ::testing::Values(1, 2, 16, 32),
                         [](const ::testing::TestParamInfo<int>& threads) {
                             return std::to_string(threads.param) + "Threads";
                         });

// A few seconds: the unfused and merged MLP at a prefill-like shape.
TEST(RunEstimate, LargeMlpRunWithinAFactorOfTwo) {
    RunRequest request;
    request.pipeline = "mlp";
    request.variants = {"unfused", "merged_gate_up"};
    request.problem.dimensions = {{"M", 64}, {"H", 1024}, {"I", 2048}};
    request.settings.repeats = 3;
    request.settings.warmup = 1;
    expectWithinFactorTwo(estimatedAndMeasured(request));
}

// Memory bound: the elementwise lesson at 2^24 elements.
TEST(RunEstimate, ElementwiseRunWithinAFactorOfTwo) {
    RunRequest request;
    request.pipeline = "swiglu";
    request.problem.dimensions = {{"N", std::uint64_t{1} << 24}};
    request.settings.repeats = 5;
    request.settings.warmup = 1;
    expectWithinFactorTwo(estimatedAndMeasured(request));
}

TEST(RunEstimate, DurationsInWords) {
    EXPECT_EQ(describeDuration(0.2), "under a second");
    EXPECT_EQ(describeDuration(40.0), "about 40 s");
    EXPECT_EQ(describeDuration(540.0), "about 9 minutes");
    EXPECT_EQ(describeDuration(3.0 * 3600.0), "about 3 hours");
}
