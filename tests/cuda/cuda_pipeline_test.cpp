// Every pipeline and variant through runPipeline on the CUDA backend: correct against the CPU
// reference with every element written, timed, with known resources. Skips without a GPU.
#include <gtest/gtest.h>

#include <tuple>

#include "cuda_gpu_fixture.h"
#include "pipelines/registry.h"
#include "runtime/runner.h"

using namespace fusescope;

namespace {

class QuietObserver : public RunObserver {};

RunRequest requestFor(std::string pipeline, int vectorWidth, std::uint64_t n) {
    RunRequest request;
    request.pipeline = std::move(pipeline);
    request.problem.dimensions["N"] = n;
    request.problem.tuning["vector"] = vectorWidth;
    request.settings.repeats = 3;
    request.settings.warmup = 1;
    return request;
}

std::string label(const VariantResult& variant) {
    return variant.pipeline + "/" + variant.variant + " width " +
           std::to_string(variant.problem.tuningValue("vector")) + " n " +
           std::to_string(variant.problem.dimension("N"));
}

void expectCorrectAndMeasured(const RunReport& report, const RunRequest& request) {
    const PipelineSpec& pipeline = *findPipeline(request.pipeline);
    EXPECT_EQ(report.device.backend, BackendKind::Cuda);
    EXPECT_GT(report.roofline.timeMs, 0.0);
    ASSERT_EQ(report.variants.size(),
              request.variants.empty() ? pipeline.variants.size() : request.variants.size());
    for (const VariantResult& variant : report.variants) {
        SCOPED_TRACE(label(variant));
        const VariantSpec& spec = *findVariant(pipeline, variant.variant);
        EXPECT_EQ(variant.backend, BackendKind::Cuda);
        EXPECT_EQ(variant.check.unwrittenElements, 0u);
        EXPECT_TRUE(variant.check.ok) << "max relative error " << variant.check.error;
        EXPECT_GT(variant.timeMs, 0.0);
        EXPECT_EQ(variant.peakBytesInFlight,
                  spec.buffers.size() * request.problem.dimension("N") * sizeof(float));
        ASSERT_EQ(variant.kernels.size(), spec.kernelsFor(variant.problem).size());
        for (const KernelResult& kernel : variant.kernels) {
            SCOPED_TRACE(kernel.name);
            EXPECT_GT(kernel.timeMs, 0.0);
            EXPECT_TRUE(kernel.resources.known);
            EXPECT_GT(kernel.resources.registersPerThread, 0);
            EXPECT_EQ(kernel.resources.localBytesPerThread, 0);
            EXPECT_GE(kernel.resources.gridSize, 1);
        }
    }
}

}  // namespace

class CudaPipelineRuns
    : public fusescope::testing_support::GpuTest,
      public testing::WithParamInterface<std::tuple<std::string, int, std::uint64_t>> {};

TEST_P(CudaPipelineRuns, EveryVariantMatchesTheReference) {
    const auto& [pipeline, width, n] = GetParam();
    const RunRequest request = requestFor(pipeline, width, n);
    QuietObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    ASSERT_TRUE(report) << report.status().message();
    expectCorrectAndMeasured(*report, request);
}

namespace {

// "swiglu_w4_n1000003": readable names for --gtest_filter.
std::string runName(
    const testing::TestParamInfo<std::tuple<std::string, int, std::uint64_t>>& info) {
    return std::get<0>(info.param) + "_w" + std::to_string(std::get<1>(info.param)) + "_n" +
           std::to_string(std::get<2>(info.param));
}

std::string widthName(const testing::TestParamInfo<int>& info) {
    // Appending (not "w" + string) avoids GCC 12's false -Wrestrict at -O3.
    std::string name = "w";
    name += std::to_string(info.param);
    return name;
}

}  // namespace

// Sizes below, at and just past one float4 group, an odd size, and one past the 60 MB L2.
INSTANTIATE_TEST_SUITE_P(AllPipelines, CudaPipelineRuns,
                         testing::Combine(testing::Values("affine", "swiglu"),
                                          testing::Values(1, 4),
                                          testing::Values(1u, 3u, 4u, 5u, 1000003u, 1u << 24)),
                         runName);

using CudaPipelineTest = fusescope::testing_support::GpuTest;

TEST_F(CudaPipelineTest, ScratchPeakIsOneArrayLargerThanFused) {
    RunRequest request = requestFor("swiglu", 4, 1u << 24);
    request.variants = {"scratch", "two_launch", "fused"};
    QuietObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    ASSERT_TRUE(report) << report.status().message();
    ASSERT_EQ(report->variants.size(), 3u);
    const std::uint64_t array = request.problem.dimension("N") * sizeof(float);
    EXPECT_EQ(report->variants[0].peakBytesInFlight, report->variants[2].peakBytesInFlight + array);
    EXPECT_EQ(report->variants[1].peakBytesInFlight, report->variants[2].peakBytesInFlight + array);
}

// 64-bit indexing: an array of more than 2^31 floats (8.6 GB), every element checked.
class CudaBeyondTwoToThe31 : public fusescope::testing_support::GpuTest,
                             public testing::WithParamInterface<int> {};

TEST_P(CudaBeyondTwoToThe31, AffineFusedWritesEveryElement) {
    RunRequest request = requestFor("affine", GetParam(), (1ull << 31) + 5);
    request.variants = {"fused"};
    request.settings.repeats = 1;
    request.settings.warmup = 0;
    const DeviceInfo device = backend->describe();
    if (maxSizeFor(request, device) < request.problem.dimension("N"))
        GTEST_SKIP() << device.name << " has too little free memory for 2^31 + 5 floats";
    QuietObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    ASSERT_TRUE(report) << report.status().message();
    expectCorrectAndMeasured(*report, request);
}

INSTANTIATE_TEST_SUITE_P(BothWidths, CudaBeyondTwoToThe31, testing::Values(1, 4), widthName);
