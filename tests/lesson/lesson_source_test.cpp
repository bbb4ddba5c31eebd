// Where a step's numbers come from: live on a GPU, live on the CPU backend for the pipelines
// that count whole-array passes, else the step's shipped recording; stand-ins said in words.
#include <gtest/gtest.h>

#include "expr/expression_pipeline.h"
#include "expr/ledger.h"
#include "expr/parser.h"
#include "expr/variant_plan.h"
#include "lesson_fixture.h"
#include "model/lesson/lesson_reveal.h"
#include "model/lesson/lesson_source.h"
#include "model/recording.h"
#include "pipelines/runtime_registry.h"
#include "runtime/backend.h"

using namespace fusescope::model;
using fusescope::BackendKind;
using fusescope::Result;
using fusescope::RunRequest;

namespace {

LessonPlan plan(const char* name) {
    const LessonParse parse = loadShippedPlan(name);
    EXPECT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    return parse.plan;
}

TEST(LessonSource, ElementwiseStepsRunLiveOnTheCpuAndTheMlpOpensItsRecording) {
    const LessonPlan lesson = plan("fused-kernels.lesson.md");
    const StepSource affine = chooseStepSource(lesson.steps[0], false);
    EXPECT_TRUE(affine.live);
    EXPECT_EQ(affine.backend, BackendKind::Cpu);
    EXPECT_EQ(affine.words, QStringLiteral("runs live on the CPU backend (no GPU here)"));
    const StepSource mlp = chooseStepSource(lesson.steps[3], false);
    EXPECT_FALSE(mlp.live);
    EXPECT_EQ(mlp.recordingPath, lesson.steps[3].show.recordingPath);
    EXPECT_EQ(mlp.words, QStringLiteral("opens the shipped NVIDIA H200 recording "
                                        "h200-mlp-classroom-bf16.fusescope.json (no GPU here)"));
}

TEST(LessonSource, EveryNamedPipelineRunsLiveOnAGpu) {
    for (const LessonStep& step : plan("fused-kernels.lesson.md").steps) {
        const StepSource source = chooseStepSource(step, true);
        EXPECT_TRUE(source.live) << step.title.toStdString();
        EXPECT_EQ(source.backend, BackendKind::Cuda);
    }
}

TEST(LessonSource, ARecordingOnlyStepOpensItsRecordingEvenOnAGpu) {
    const LessonParse parse =
        parseStep(QStringLiteral("recording: h200-swiglu-2e26.fusescope.json\n"));
    ASSERT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    const StepSource source = chooseStepSource(parse.plan.steps.constFirst(), true);
    EXPECT_FALSE(source.live);
    EXPECT_EQ(
        source.words,
        QStringLiteral("opens the shipped NVIDIA H200 recording h200-swiglu-2e26.fusescope.json"));
}

TEST(LessonSource, AKernelStepOpensItsKernelInTheLabAndRunsItOnlyOnAGpu) {
    const LessonPlan lab = plan("swiglu-apply-fusion.lesson.md");
    const LessonStep& starter = lab.steps[0];
    const StepSource onGpu = chooseStepSource(starter, true);
    EXPECT_TRUE(onGpu.kernelRuns);
    EXPECT_EQ(onGpu.kernelPath, starter.show.kernelPath);
    EXPECT_EQ(onGpu.words, QStringLiteral("runs the kernel lab_swiglu_scratch.cu live on the GPU "
                                          "in the Lab, beside the shipped swiglu variants"));
    const StepSource noGpu = chooseStepSource(starter, false);
    EXPECT_FALSE(noGpu.kernelRuns || noGpu.live);
    EXPECT_EQ(noGpu.kernelPath, starter.show.kernelPath);
    EXPECT_EQ(noGpu.recordingPath, starter.show.recordingPath);
    EXPECT_EQ(noGpu.words,
              QStringLiteral("opens the shipped NVIDIA H200 recording h200-swiglu-2e26.fusescope."
                             "json; the Lab shows the kernel lab_swiglu_scratch.cu: running it "
                             "needs a GPU (none here)"));
    // Without a recording there is nothing to measure: the kernel, and why it does not run.
    LessonStep bare = starter;
    bare.show.recordingPath.clear();
    const StepSource shown = chooseStepSource(bare, false);
    EXPECT_TRUE(shown.recordingPath.isEmpty());
    EXPECT_EQ(shown.words, QStringLiteral("shows the kernel lab_swiglu_scratch.cu in the Lab: "
                                          "running it needs a GPU (none here)"));
}

TEST(LessonSource, ATileQuestionSaysItsTileSweep) {
    const LessonStep tile = plan("fused-kernels.lesson.md").steps[5];
    EXPECT_TRUE(chooseStepSource(tile, false)
                    .words.endsWith(QStringLiteral(
                        "; the tile's limit comes from the shipped NVIDIA H200 tile sweep "
                        "tiles-mlp-classroom-bf16-h200.json")));
}

TEST(LessonSource, TheHomeworkExpressionRunsLiveOnTheCpuAndRevealsItsOwnPasses) {
    struct Unregister {
        ~Unregister() {
            (void)fusescope::unregisterPipeline(
                std::string(fusescope::expr::kExpressionPipelineName));
        }
    } unregister;
    const LessonStep homework = plan("fused-kernels.lesson.md").steps[7];
    const StepSource source = chooseStepSource(homework, false);
    ASSERT_TRUE(source.live) << source.words.toStdString();
    EXPECT_EQ(source.backend, BackendKind::Cpu);
    EXPECT_TRUE(source.words.startsWith(
        QStringLiteral("runs the expression %1 live on the CPU").arg(homework.show.expression)))
        << source.words.toStdString();
    // Headless, nothing runs: the step's recording stands in.
    EXPECT_FALSE(chooseStepSource(homework, false, false).live);

    Result<LessonStep> live = liveStep(homework);
    ASSERT_TRUE(live.isOk()) << live.status().message();
    EXPECT_EQ(live->show.pipeline.toStdString(), fusescope::expr::kExpressionPipelineName);
    Result<RunRequest> request = stepRunRequest(*live, BackendKind::Cpu, true);
    ASSERT_TRUE(request.isOk()) << request.status().message();
    EXPECT_EQ(request->pipeline, fusescope::expr::kExpressionPipelineName);
    auto backend = fusescope::createCpuBackend(2);
    fusescope::RunObserver observer;
    Result<fusescope::RunReport> report = fusescope::runPipeline(*backend, *request, observer);
    ASSERT_TRUE(report.isOk()) << report.status().message();
    const Recording recording = recordingFrom(*report, RecordingOrigin{});
    ASSERT_TRUE(live->question);
    Result<MeasuredAnswer> answer = measureAnswer(*live, recording);
    ASSERT_TRUE(answer.isOk()) << answer.status().message();

    // The chain's own unfused passes, as the expression lab's ledger predicts them.
    const fusescope::expr::ParseResult parsed =
        fusescope::expr::parseProgram(homework.show.expression.toStdString());
    ASSERT_TRUE(parsed);
    const fusescope::expr::Ledger ledger = fusescope::expr::predictLedger(
        parsed.program(),
        fusescope::expr::planVariant(parsed.program(), fusescope::expr::Strategy::Unfused),
        request->problem.dimension("N"));
    EXPECT_EQ(answer->value, static_cast<double>(ledger.passes));
    EXPECT_FALSE(revealNumbers(*live, recording).isEmpty());
}

TEST(LessonSource, QuickRunRequestOfAStep) {
    const LessonStep step = plan("fused-kernels.lesson.md").steps[2];
    Result<RunRequest> request = stepRunRequest(step, BackendKind::Cpu, true);
    ASSERT_TRUE(request.isOk());
    EXPECT_EQ(request->pipeline, "swiglu");
    EXPECT_EQ(request->variants, (std::vector<std::string>{"scratch", "two_launch", "fused"}));
    EXPECT_EQ(request->problem.dimension("N"), std::uint64_t{1} << 24);
    EXPECT_EQ(request->settings.repeats, 1);
    EXPECT_EQ(request->settings.warmup, 0);
    EXPECT_FALSE(request->roofs);
}

}  // namespace

TEST(LessonSource, APictureOnAGpuMachineOpensTheRecordingWithoutBlamingTheGpu) {
    const LessonPlan lesson = plan("fused-kernels.lesson.md");
    for (const bool gpu : {true, false}) {
        const StepSource mlp = chooseStepSource(lesson.steps[3], gpu, false);
        EXPECT_FALSE(mlp.live);
        EXPECT_EQ(mlp.words, QStringLiteral("opens the shipped NVIDIA H200 recording "
                                            "h200-mlp-classroom-bf16.fusescope.json"));
    }
}
