// The CPU backend's choices a lesson depends on: both instruction sets compute the same
// results, the thread count is honoured and recorded, and large outputs are checked by sample.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "pipelines/cpu_kernels.h"
#include "pipelines/elementwise_family.h"
#include "pipelines/registry.h"
#include "runtime/progress_estimate.h"
#include "runtime/runner.h"
#include "support/elementwise_request.h"

using namespace fusescope;

namespace {

std::vector<CpuInstructionSet> availableSets() {
    std::vector<CpuInstructionSet> sets = {CpuInstructionSet::Baseline};
    if (bestCpuInstructionSet() == CpuInstructionSet::Avx2Fma)
        sets.push_back(CpuInstructionSet::Avx2Fma);
    return sets;
}

}  // namespace

TEST(CpuBackendLesson, EveryInstructionSetAndWidthMatchesTheReference) {
    for (CpuInstructionSet set : availableSets())
        for (const PipelineSpec& pipeline : pipelines())
            for (int width : {1, 4}) {
                if (!pipeline.countsPasses) continue;  // the elementwise kernels
                auto backend = createCpuBackend(2, set);
                // 100003: not a multiple of any vector width.
                const RunRequest request =
                    testsupport::elementwiseRequest(pipeline.name, 100003, width, 1, 0);
                RunObserver observer;
                Result<RunReport> report = runPipeline(*backend, request, observer);
                ASSERT_TRUE(report) << report.status().message();
                EXPECT_EQ(report->device.runtimeVersion, cpuInstructionSetName(set));
                for (const VariantResult& variant : report->variants)
                    EXPECT_TRUE(variant.check.ok)
                        << cpuInstructionSetName(set) << " " << pipeline.name << " "
                        << variant.variant << " width " << width << ": error "
                        << variant.check.error;
            }
}

// Every MLP variant on the CPU backend, on a shape no tile divides, in every declared dtype
// (float32, bfloat16, tf32), against the double reference (every output element written).
TEST(CpuBackendLesson, EveryMlpVariantMatchesTheReferenceOnAnOddShape) {
    const PipelineSpec& mlp = *findPipeline("mlp");
    for (DType dtype : mlp.dtypes) {
        auto backend = createCpuBackend(2);
        RunRequest request;
        request.pipeline = mlp.name;
        request.problem = withPreset(mlp.defaultProblem(), *mlp.findPreset("odd"));
        request.problem.dtype = dtype;
        request.settings.repeats = 1;
        request.settings.warmup = 0;
        RunObserver observer;
        Result<RunReport> report = runPipeline(*backend, request, observer);
        ASSERT_TRUE(report) << report.status().message();
        ASSERT_EQ(report->variants.size(), mlp.variants.size());
        for (const VariantResult& variant : report->variants) {
            EXPECT_TRUE(variant.check.ok)
                << dtypeName(dtype) << " " << variant.variant << ": error " << variant.check.error;
            EXPECT_EQ(variant.check.unwrittenElements, 0u) << variant.variant;
            EXPECT_LE(variant.check.error, dtype == DType::Float32 ? 1e-4
                                           : dtype == DType::Tf32  ? 5e-3
                                                                   : 2e-2);
            EXPECT_FALSE(variant.passesCounted);
            EXPECT_GT(variant.modelFlops, 0.0);
        }
    }
}

TEST(CpuBackendLesson, RunsOnTheThreadsTheRequestAsksFor) {
    auto backend = createCpuBackend();
    RunRequest request;
    request.pipeline = "affine";
    request.problem.dimensions["N"] = 4096;
    request.settings.repeats = 1;
    request.cpuThreads = 1;
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    ASSERT_TRUE(report);
    EXPECT_EQ(report->device.multiprocessors, 1);
    request.cpuThreads = -1;
    EXPECT_FALSE(runPipeline(*backend, request, observer));
}

TEST(CpuBackendLesson, DefaultsMakeAFirstCpuRunShort) {
    EXPECT_LT(runDefaultsFor(BackendKind::Cpu).repeats, runDefaultsFor(BackendKind::Cuda).repeats);
    EXPECT_GE(runDefaultsFor(BackendKind::Cpu).repeats, 3);  // a median of fewer says little
}

namespace {
double affineReference(const float* const* inputs, std::uint64_t i) {
    return static_cast<double>(inputs[0][i]) * 2.0 + 3.0;
}
}  // namespace

TEST(CheckOutput, ComparesEveryElementOfSmallOutputs) {
    const std::uint64_t n = 1000;
    std::vector<float> x(n, 1.0f), out(n, 5.0f);
    const float* inputs[] = {x.data()};
    const CheckResult check = checkElementwiseOutput(affineReference, inputs, out.data(), n);
    EXPECT_TRUE(check.ok);
    EXPECT_EQ(check.comparedElements, n);
}

TEST(CheckOutput, SamplesLargeOutputsButFindsEveryUnwrittenElementAndTheTail) {
    const std::uint64_t n = (kReferenceSampleElements * 3) + 5;
    std::vector<float> x(n, 1.0f), out(n, 5.0f);
    const float* inputs[] = {x.data()};
    CheckResult check = checkElementwiseOutput(affineReference, inputs, out.data(), n);
    EXPECT_TRUE(check.ok);
    EXPECT_EQ(check.comparedElements, kReferenceSampleElements);

    std::memset(&out[n / 2 + 1], kPoisonByte, sizeof(float));  // one unwritten element
    check = checkElementwiseOutput(affineReference, inputs, out.data(), n);
    EXPECT_FALSE(check.ok);
    EXPECT_EQ(check.unwrittenElements, 1u);

    out[n / 2 + 1] = 5.0f;
    out[n - 1] = 5.5f;  // a wrong scalar tail
    check = checkElementwiseOutput(affineReference, inputs, out.data(), n);
    EXPECT_FALSE(check.ok);

    out[n - 1] = 5.0f;
    for (float& value : out) value = 5.001f;  // a systematic error
    check = checkElementwiseOutput(affineReference, inputs, out.data(), n);
    EXPECT_FALSE(check.ok);
    EXPECT_NEAR(check.error, 2e-4, 1e-5);
}

TEST(ProgressEstimate, ExtrapolatesOnlyOnceEnoughIsDone) {
    EXPECT_FALSE(estimateProgress(0.01, 5.0).remainingSeconds);
    EXPECT_FALSE(estimateProgress(0.5, 0.2).remainingSeconds);
    const ProgressEstimate half = estimateProgress(0.25, 4.0);
    ASSERT_TRUE(half.remainingSeconds);
    EXPECT_DOUBLE_EQ(*half.remainingSeconds, 12.0);
    EXPECT_EQ(describeProgress(half), "4.0 s elapsed, about 12 s left");
    EXPECT_EQ(describeProgress(estimateProgress(0.5, 0.4)), "");
    EXPECT_EQ(describeProgress(estimateProgress(0.5, 65.0)),
              "1 min 05 s elapsed, about 1 min 05 s left");
    EXPECT_FALSE(estimateProgress(1.0, 9.0).remainingSeconds);
}

TEST(ProgressEstimate, StageKeyIsTheTextBeforeItsCounters) {
    EXPECT_EQ(progressStageKey("timing fused: repeat 3 of 20"), "timing fused");
    EXPECT_EQ(progressStageKey("checking fused"), "checking fused");
    EXPECT_EQ(progressStageKey("warming up fused · 3.5 s elapsed"), "warming up fused");
}
