// The three-step chain defined as data, its CUDA kernels compiled by NVRTC at run time, run on
// the GPU at both vector widths and several sizes, and checked against its described reference.
#include <gtest/gtest.h>

#include <string>

#include "cuda_gpu_fixture.h"
#include "pipelines/described_pipeline.h"
#include "pipelines/runtime_registry.h"
#include "platform/runtime_compiler.h"
#include "runtime/runner.h"
#include "support/runtime_chain.h"

using namespace fusescope;

namespace {

class CudaRuntimePipeline : public fusescope::testing_support::NvrtcWidthAndSizeTest {};

}  // namespace

TEST_P(CudaRuntimePipeline, TheNvrtcChainMatchesItsReference) {
    const auto& [width, n] = GetParam();
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(test::chainDescription());
    ASSERT_TRUE(pipeline) << pipeline.status().message();
    ASSERT_TRUE(replacePipeline(std::move(*pipeline)));
    test::RegisteredForTest registered{"runtime_chain"};

    const RunRequest request = test::chainRequest(n, width, 3, 1);
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    ASSERT_TRUE(report) << report.status().message();
    ASSERT_EQ(report->variants.size(), 2u);
    for (const VariantResult& variant : report->variants) {
        EXPECT_TRUE(variant.check.ok) << variant.variant << ": error " << variant.check.error
                                      << ", unwritten " << variant.check.unwrittenElements;
        EXPECT_EQ(variant.check.unwrittenElements, 0u) << variant.variant;
        EXPECT_GT(variant.timeMs, 0.0) << variant.variant;
        for (const KernelResult& kernel : variant.kernels) {
            EXPECT_TRUE(kernel.resources.known) << kernel.name;
            EXPECT_FALSE(kernel.resources.origin.empty()) << kernel.name;
        }
    }
    EXPECT_EQ(report->variants[0].passes, 7);
    EXPECT_EQ(report->variants[1].passes, 3);
}

INSTANTIATE_TEST_SUITE_P(BothWidths, CudaRuntimePipeline,
                         fusescope::testing_support::bothWidthsAtEdgeSizes(),
                         fusescope::testing_support::widthAndSizeName);

using CudaRuntimePipelineErrors = fusescope::testing_support::NvrtcGpuTest;

// Both outputs of a two-output family are checked on the GPU: the variant whose NVRTC kernel
// writes the second output wrong fails, and the check names that output.
TEST_F(CudaRuntimePipelineErrors, AWrongSecondOutputFailsTheCheckByName) {
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(test::twoOutputDescription());
    ASSERT_TRUE(pipeline) << pipeline.status().message();
    ASSERT_TRUE(replacePipeline(std::move(*pipeline)));
    test::RegisteredForTest registered{"two_outputs"};
    const RunRequest request = test::chainRequest(1000003, 4, 2, 0, "two_outputs");
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    ASSERT_TRUE(report) << report.status().message();
    ASSERT_EQ(report->variants.size(), 2u);
    EXPECT_TRUE(report->variants[0].check.ok) << report->variants[0].check.wrongOutput;
    const CheckResult& wrong = report->variants[1].check;
    EXPECT_FALSE(wrong.ok);
    EXPECT_EQ(wrong.wrongOutput, "shifted");
    EXPECT_NEAR(wrong.wrongElement.got - wrong.wrongElement.expected, 1.0, 1e-5);
}

// A kernel whose source does not compile is refused with the compiler's message, and nothing runs.
TEST_F(CudaRuntimePipelineErrors, ACompileErrorIsReportedWithTheCompilersMessage) {
    PipelineDescription description = test::chainDescription();
    description.variants[1].kernels[0].cudaSource += "\nthis_is_not_cuda;\n";
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(description);
    ASSERT_TRUE(pipeline) << pipeline.status().message();
    ASSERT_TRUE(replacePipeline(std::move(*pipeline)));
    test::RegisteredForTest registered{"runtime_chain"};
    RunRequest request = test::chainRequest(1000);
    request.variants = {"fused"};
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    ASSERT_FALSE(report);
    EXPECT_NE(report.status().message().find("this_is_not_cuda"), std::string::npos)
        << report.status().message();
}
