// The learner's run as a recording keeps it: the work it does is its reference's FLOPs for the
// problem, so the views' FLOP rates do not read 0 for "your kernel".
#include <gtest/gtest.h>

#include "model/lab/learner_run.h"
#include "pipelines/traffic_bounds.h"

using namespace fusescope;

TEST(LearnerRun, RecordsItsReferencesFlopsForTheProblem) {
    const Result<model::LearnerKernel> kernel =
        model::loadLearnerKernel(QStringLiteral(FUSESCOPE_LAB_STARTERS_DIR "/lab_swiglu_fused.cu"));
    ASSERT_TRUE(kernel) << kernel.status().message();
    const PipelineSpec* reference = findPipeline("swiglu");
    ASSERT_NE(reference, nullptr);
    const Problem problem = reference->defaultProblem();
    const std::optional<double> flops = usefulFlops(*reference, problem);
    ASSERT_TRUE(flops.has_value());
    ASSERT_GT(*flops, 0.0);

    LearnerTiming timing;
    timing.medianMs = 1.0;
    timing.repeatTimesMs = {1.0};
    const model::VariantResult run =
        model::learnerRunResult(*kernel, *reference, problem, timing, CheckResult{});
    EXPECT_EQ(run.variant, model::learnerVariantName().toStdString());
    EXPECT_DOUBLE_EQ(run.modelFlops, *flops);
    ASSERT_EQ(run.kernels.size(), 1);
    EXPECT_DOUBLE_EQ(run.kernels.front().modelFlops, *flops);
}
