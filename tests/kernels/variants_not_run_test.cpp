// A variant whose code cannot run on the backend for the problem (the production fusion in TF32
// on the GPU) is left out of the run with its reason; the others still run. A run refuses only
// when none of its variants can run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fakes/forwarding_backend.h"
#include "pipelines/registry.h"
#include "runtime/runner.h"

using namespace fusescope;

namespace {

// The CPU backend, as a device with no code for SwiGLU's fused variant.
class NoFusedCodeBackend : public testing_support::ForwardingBackend {
  public:
    NoFusedCodeBackend() : ForwardingBackend(createCpuBackend(2)) {}

    Status supports(const KernelLaunch& launch) override {
        if (launch.call.variant == "fused")
            return Status(ErrorCode::InvalidArgument, "no code for it on this device");
        return inner().supports(launch);
    }
};

class LeftOutObserver : public RunObserver {};

RunRequest swigluOf4099(std::vector<std::string> variants) {
    RunRequest request;
    request.pipeline = "swiglu";
    request.variants = std::move(variants);
    request.problem.dimensions["N"] = 4099;
    request.settings.warmup = 0;
    request.settings.repeats = 1;
    return request;
}

std::vector<std::string> ranVariantsOf(const RunReport& report) {
    std::vector<std::string> names;
    for (const VariantResult& run : report.variants) names.push_back(run.variant);
    return names;
}

}  // namespace

TEST(VariantsNotRun, AVariantWithoutCodeHereIsLeftOutWithItsReasonAndTheOthersRun) {
    NoFusedCodeBackend backend;
    LeftOutObserver observer;
    const Result<RunReport> report = runPipeline(backend, swigluOf4099({}), observer);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_EQ(ranVariantsOf(*report), (std::vector<std::string>{"scratch", "two_launch"}));
    for (const VariantResult& run : report->variants) EXPECT_TRUE(run.check.ok) << run.variant;
    ASSERT_EQ(report->variantsNotRun.size(), 1u);
    EXPECT_EQ(report->variantsNotRun.front().variant, "fused");
    EXPECT_EQ(report->variantsNotRun.front().reason,
              "fused cannot run here: no code for it on this device");
}

TEST(VariantsNotRun, NamedVariantsAreLeftOutTheSameWay) {
    NoFusedCodeBackend backend;
    LeftOutObserver observer;
    const Result<RunReport> report =
        runPipeline(backend, swigluOf4099({"fused", "two_launch"}), observer);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_EQ(ranVariantsOf(*report), (std::vector<std::string>{"two_launch"}));
    ASSERT_EQ(report->variantsNotRun.size(), 1u);
    EXPECT_EQ(report->variantsNotRun.front().variant, "fused");
}

TEST(VariantsNotRun, ARunWithNoVariantThatCanRunRefusesWithTheReason) {
    NoFusedCodeBackend backend;
    LeftOutObserver observer;
    const Result<RunReport> report = runPipeline(backend, swigluOf4099({"fused"}), observer);
    ASSERT_FALSE(report);
    EXPECT_EQ(report.status().message(), "fused cannot run here: no code for it on this device");
}

TEST(VariantsNotRun, ABackendWithCodeForEveryVariantLeavesNoneOut) {
    const std::unique_ptr<Backend> cpu = createCpuBackend(2);
    LeftOutObserver observer;
    const Result<RunReport> report = runPipeline(*cpu, swigluOf4099({}), observer);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_EQ(report->variants.size(), 3u);
    EXPECT_TRUE(report->variantsNotRun.empty());
}
