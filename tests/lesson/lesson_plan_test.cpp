// The plan format: the shipped plans open clean, and every kind of malformed plan is refused
// with a clear message at its line.
#include <gtest/gtest.h>

#include "lesson_fixture.h"
#include "model/lab/learner_kernel.h"
#include "model/lesson/lesson_reveal.h"
#include "model/lesson/lesson_tile_limit.h"
#include "support/text_contains.h"

using namespace fusescope::model;

namespace {

// The one error of a parse, as "LINE: message".
QString onlyError(const LessonParse& parse) {
    if (parse.errors.size() != 1)
        return QStringLiteral("%1 errors: %2").arg(parse.errors.size()).arg(parse.errorText());
    return QStringLiteral("%1: %2")
        .arg(parse.errors.constFirst().line)
        .arg(parse.errors.constFirst().message);
}

const QString kAffine = QStringLiteral(
    "pipeline: affine\n"
    "dimensions: N=4096\n"
    "variants: unfused, fused\n");

TEST(LessonPlan, ShippedFusedKernelsPlanOpensWithItsSectionsAndATileQuestion) {
    const LessonParse parse = loadShippedPlan("fused-kernels.lesson.md");
    ASSERT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    EXPECT_EQ(parse.plan.title, QStringLiteral("Fused kernels"));
    ASSERT_EQ(parse.plan.steps.size(), 8);
    EXPECT_EQ(parse.plan.steps[0].title, QStringLiteral("The affine chain"));
    EXPECT_EQ(parse.plan.steps[4].title, QStringLiteral("When not to fuse"));
    EXPECT_FALSE(parse.plan.steps[7].show.expression.isEmpty());
    // Beside "when not to fuse": which resource limits the lesson's kernel at a tile.
    const LessonStep& tile = parse.plan.steps[5];
    ASSERT_TRUE(tile.question);
    EXPECT_EQ(tile.question->kind, QuestionKind::Limit);
    EXPECT_EQ(tile.question->variant, QStringLiteral("lesson_fused"));
    EXPECT_GE(tile.question->choices.size(), 2);
    EXPECT_FALSE(tile.show.tileSweepPath.isEmpty());
    for (const LessonStep& step : parse.plan.steps) {
        EXPECT_FALSE(step.show.recordingPath.isEmpty()) << step.title.toStdString();
        EXPECT_FALSE(step.text.isEmpty()) << step.title.toStdString();
    }
    ASSERT_TRUE(parse.plan.steps[0].question);
    EXPECT_EQ(parse.plan.steps[0].question->unit, AnswerUnit::Passes);
    EXPECT_EQ(parse.plan.steps[0].question->variant, QStringLiteral("unfused"));
    EXPECT_EQ(parse.plan.steps[2].question->kind, QuestionKind::Order);
    EXPECT_EQ(parse.plan.steps[0].notes.count(QLatin1Char('\n')), 1);
}

TEST(LessonPlan, ShippedSwigluLabPlanOpens) {
    const LessonParse parse = loadShippedPlan("swiglu-apply-fusion.lesson.md");
    ASSERT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    EXPECT_EQ(parse.plan.title, QStringLiteral("SwiGLU: apply fusion"));
    ASSERT_EQ(parse.plan.steps.size(), 5);
    // The lab's steps open the starter, then the lab's solution, in the Lab.
    EXPECT_TRUE(
        parse.plan.steps[0].show.kernelPath.endsWith(QStringLiteral("/lab_swiglu_scratch.cu")));
    EXPECT_TRUE(
        parse.plan.steps[1].show.kernelPath.endsWith(QStringLiteral("/lab_swiglu_fused.cu")));
    // The solution keeps SiLU in a register: no scratch buffer, three passes, the starter's entry.
    const auto starter = loadLearnerKernel(parse.plan.steps[0].show.kernelPath);
    const auto solution = loadLearnerKernel(parse.plan.steps[1].show.kernelPath);
    ASSERT_TRUE(starter.isOk() && solution.isOk());
    EXPECT_EQ(starter->passCount(), 5);
    EXPECT_EQ(solution->passCount(), 3);
    EXPECT_EQ(solution->entry, starter->entry);
    for (const LearnerBuffer& buffer : solution->buffers)
        EXPECT_NE(buffer.role, LearnerBufferRole::Scratch);
    EXPECT_EQ(parse.plan.steps[2].question->unit, AnswerUnit::PeakMegabytes);
}

TEST(LessonPlan, TextAndFieldsOfAStep) {
    const LessonParse parse =
        parseStep(kAffine + QStringLiteral("\nSome *Markdown*\nhttps://example.org: a link\n\n"
                                           "question: How many?\nunit: passes\nof: fused\n"
                                           "moment: pass 2\n"));
    ASSERT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    const LessonStep& step = parse.plan.steps.constFirst();
    EXPECT_EQ(step.line, 3);
    EXPECT_EQ(step.text, QStringLiteral("Some *Markdown*\nhttps://example.org: a link"));
    EXPECT_EQ(step.show.variants,
              (QStringList{QStringLiteral("unfused"), QStringLiteral("fused")}));
    EXPECT_EQ(step.question->line, 11);
    EXPECT_EQ(step.reveal.moment, QStringLiteral("pass 2"));
}

TEST(LessonPlan, MissingTitle) {
    const LessonParse parse = parseLessonPlan(QStringLiteral("\n## A step\n") + kAffine,
                                              QStringLiteral("x.md"), shippedRecordingDirs());
    EXPECT_EQ(onlyError(parse), QStringLiteral("1: a plan starts with its title: # Title"));
}

TEST(LessonPlan, NoSteps) {
    const LessonParse parse = parseLessonPlan(QStringLiteral("# Title\n"), QStringLiteral("x.md"),
                                              shippedRecordingDirs());
    EXPECT_TRUE(onlyError(parse).contains(QStringLiteral("no steps")))
        << onlyError(parse).toStdString();
}

TEST(LessonPlan, StepThatShowsNothingIsRefusedAtItsHeading) {
    const LessonParse parse = parseStep(QStringLiteral("Just text\n"));
    EXPECT_TRUE(testsupport::startsWith(onlyError(parse),
                                        QStringLiteral("3: step 'A step' shows nothing")));
}

TEST(LessonPlan, UnknownFieldAtItsLine) {
    const LessonParse parse = parseStep(kAffine + QStringLiteral("note: typo\n"));
    EXPECT_TRUE(
        testsupport::startsWith(onlyError(parse), QStringLiteral("7: unknown field 'note:'")));
}

TEST(LessonPlan, FieldGivenTwice) {
    const LessonParse parse = parseStep(kAffine + QStringLiteral("view: stage\nview: results\n"));
    EXPECT_EQ(onlyError(parse),
              QStringLiteral("8: view: given twice in this step (first at line 7)"));
}

TEST(LessonPlan, UnknownPipelineAtItsLine) {
    const LessonParse parse = parseStep(QStringLiteral("pipeline: afine\n"));
    EXPECT_TRUE(
        testsupport::startsWith(onlyError(parse), QStringLiteral("4: unknown pipeline 'afine'")));
}

TEST(LessonPlan, UnknownVariantAtItsLine) {
    const LessonParse parse =
        parseStep(QStringLiteral("pipeline: affine\nvariants: unfused, fast\n"));
    EXPECT_TRUE(testsupport::startsWith(
        onlyError(parse), QStringLiteral("5: pipeline affine has no variant 'fast'")));
}

TEST(LessonPlan, BadProblemAtItsLine) {
    const LessonParse parse = parseStep(QStringLiteral("pipeline: affine\ndimensions: N=0\n"));
    ASSERT_EQ(parse.errors.size(), 1) << parse.errorText().toStdString();
    EXPECT_EQ(parse.errors.constFirst().line, 5);
}

TEST(LessonPlan, UnknownRecordingAtItsLine) {
    const LessonParse parse =
        parseStep(kAffine + QStringLiteral("recording: h200-nothing.fusescope.json\n"));
    EXPECT_TRUE(testsupport::startsWith(
        onlyError(parse), QStringLiteral("7: recording h200-nothing.fusescope.json not found")));
}

TEST(LessonPlan, RecordingOfAnotherPipeline) {
    const LessonParse parse =
        parseStep(kAffine + QStringLiteral("recording: h200-swiglu-2e26.fusescope.json\n"));
    ASSERT_FALSE(parse.errors.isEmpty());
    EXPECT_EQ(parse.errors.constFirst().line, 7);
    EXPECT_TRUE(parse.errorText().contains(QStringLiteral("shows pipeline swiglu, not affine")))
        << parse.errorText().toStdString();
}

TEST(LessonPlan, GpuOnlyPipelineNeedsARecording) {
    const LessonParse parse = parseStep(QStringLiteral("pipeline: mlp\npreset: classroom\n"));
    EXPECT_TRUE(testsupport::startsWith(
        onlyError(parse), QStringLiteral("4: pipeline mlp runs at class speed only on a GPU")));
}

TEST(LessonPlan, BadUnitAtItsLine) {
    const LessonParse parse =
        parseStep(kAffine + QStringLiteral("question: How far?\nunit: furlongs\nof: fused\n"));
    EXPECT_EQ(
        onlyError(parse),
        QStringLiteral("8: bad unit 'furlongs': say passes, bytes, speedup, peak-mb, gbps or ms"));
}

TEST(LessonPlan, ExpressionThatDoesNotParseAtItsLine) {
    const LessonParse parse =
        parseStep(QStringLiteral("expression: out = exp(x) *\ndimensions: N=4096\n"
                                 "recording: h200-affine-2e26.fusescope.json\n"));
    EXPECT_TRUE(
        testsupport::startsWith(onlyError(parse), QStringLiteral("4: expression: at character ")));
}

TEST(LessonPlan, ExpressionStepTakesItsProblemWithoutAPipeline) {
    const LessonParse parse =
        parseStep(QStringLiteral("expression: out = x * 2 + 3\ndimensions: N=4096\n"
                                 "recording: h200-affine-2e26.fusescope.json\n"));
    ASSERT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    EXPECT_EQ(parse.plan.steps.constFirst().show.problem.dimensions, QStringLiteral("N=4096"));
}

TEST(LessonPlan, PassesOfAPipelineThatCountsBytes) {
    const LessonParse parse = parseStep(QStringLiteral(
        "pipeline: mlp\npreset: classroom\nrecording: h200-mlp-classroom-bf16.fusescope.json\n"
        "question: How many?\nunit: passes\nof: unfused\n"));
    EXPECT_EQ(
        onlyError(parse),
        QStringLiteral("8: bad unit 'passes': pipeline mlp counts bytes, not whole-array passes"));
}

TEST(LessonPlan, NumberQuestionNeedsUnitAndVariant) {
    EXPECT_TRUE(onlyError(parseStep(kAffine + QStringLiteral("question: How many?\n")))
                    .startsWith(QStringLiteral("7: a number question needs unit:")));
    EXPECT_TRUE(
        onlyError(parseStep(kAffine + QStringLiteral("question: How many?\nunit: passes\n")))
            .startsWith(QStringLiteral("7: of: name the variant")));
    EXPECT_TRUE(onlyError(parseStep(kAffine +
                                    QStringLiteral("question: Speed?\nunit: speedup\nof: fused\n")))
                    .startsWith(QStringLiteral("7: over: name the variant")));
    EXPECT_TRUE(
        onlyError(parseStep(kAffine + QStringLiteral("question: Q?\nunit: ms\nof: scratch\n")))
            .startsWith(QStringLiteral("9: of: 'scratch' is not among the step's variants")));
}

TEST(LessonPlan, QuestionFieldsWithoutQuestion) {
    EXPECT_EQ(onlyError(parseStep(kAffine + QStringLiteral("unit: passes\n"))),
              QStringLiteral("7: unit: only with question:"));
}

TEST(LessonPlan, BadRevealValues) {
    EXPECT_TRUE(onlyError(parseStep(kAffine + QStringLiteral("moment: halfway\n")))
                    .startsWith(QStringLiteral("7: moment 'halfway'")));
    EXPECT_TRUE(onlyError(parseStep(kAffine + QStringLiteral("chart: pie\n")))
                    .startsWith(QStringLiteral("7: chart 'pie'")));
    EXPECT_TRUE(onlyError(parseStep(kAffine + QStringLiteral("reveal: time, vibes\n")))
                    .startsWith(QStringLiteral("7: reveal: 'vibes'")));
    EXPECT_TRUE(onlyError(parseStep(kAffine + QStringLiteral("view: gallery\n")))
                    .startsWith(QStringLiteral("7: view 'gallery'")));
}

// A limit question's step: its fields end at line 11, the next line is 12.
const QString kTileStep = QStringLiteral(
    "pipeline: mlp\n"
    "preset: classroom\n"
    "dtype: bf16\n"
    "variants: unfused, lesson_fused\n"
    "recording: h200-mlp-classroom-bf16.fusescope.json\n"
    "tiles: tiles-mlp-classroom-bf16-h200.json\n"
    "question: Which resource limits it first?\n"
    "kind: limit\n");
const QString kTile = QStringLiteral("tile: block_m=128,block_n=128,block_h=64,block_i=128\n");

TEST(LessonPlanLimit, TheTilesLimitComesFromTheTileSweep) {
    const LessonParse parse =
        parseStep(kTileStep + QStringLiteral("of: lesson_fused\n") + kTile +
                  QStringLiteral("choices: registers, SMs, occupancy, DRAM bandwidth\n"));
    ASSERT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    const LessonStep& step = parse.plan.steps.constFirst();
    EXPECT_EQ(step.question->choices.size(), 4);
    const fusescope::Result<MeasuredAnswer> answer = measureTileLimit(step);
    ASSERT_TRUE(answer.isOk()) << answer.status().message();
    // The shipped H200 sweep: this tile's grid is 32 blocks for 132 SMs, so SMs come first; its
    // 255 registers a thread (one block an SM, no spills) come in the reveal.
    EXPECT_EQ(answer->text, QStringLiteral("SMs"));
    EXPECT_TRUE(answer->reason.contains(QStringLiteral("32 blocks on 132 SMs: 100 SMs idle (SMs)")))
        << answer->reason.toStdString();
    EXPECT_TRUE(answer->reason.contains(QStringLiteral("255 registers/thread")))
        << answer->reason.toStdString();
    EXPECT_TRUE(answer->reason.contains(QStringLiteral("block_i=128")));
    EXPECT_TRUE(answer->source.contains(QStringLiteral("NVIDIA H200")));
    // The class answers with any of the choices, in any case.
    EXPECT_EQ(*normalizeAnswer(step, QStringLiteral("Occupancy")), QStringLiteral("occupancy"));
    EXPECT_FALSE(normalizeAnswer(step, QStringLiteral("compute")).isOk());
    EXPECT_TRUE(judgeAnswer(step, QStringLiteral("SMs"), *answer).right);
    EXPECT_EQ(judgeAnswer(step, QStringLiteral("registers"), *answer).offText,
              QStringLiteral("wrong: SMs limits this tile"));
}

TEST(LessonPlanLimit, UnknownTileAtItsLine) {
    const QString choices = QStringLiteral("choices: registers, SMs\n");
    // Two values in order would be the production variant's two tiles, not the lesson kernel's.
    const QString other = onlyError(
        parseStep(kTileStep + QStringLiteral("of: lesson_fused\ntile: 64,64\n") + choices));
    EXPECT_TRUE(other.startsWith(QStringLiteral("13: tile: "))) << other.toStdString();
    EXPECT_TRUE(
        other.contains(QStringLiteral("give 4 values in order (block_m, block_n, block_h, "
                                      "block_i)")))
        << other.toStdString();
    // Allowed tiles the sweep did not measure.
    const QString unmeasured = onlyError(parseStep(
        kTileStep +
        QStringLiteral("of: lesson_fused\ntile: block_m=64,block_n=64,block_h=128,block_i=128\n") +
        choices));
    EXPECT_TRUE(unmeasured.startsWith(QStringLiteral("13: tile: the tile sweep ")))
        << unmeasured.toStdString();
    EXPECT_TRUE(
        unmeasured.contains(QStringLiteral("has no cell at block_m=64 block_n=64 "
                                           "block_h=128 block_i=128")))
        << unmeasured.toStdString();
}

TEST(LessonPlanLimit, NonTunableVariantAtItsLine) {
    const QString error = onlyError(parseStep(kTileStep + QStringLiteral("of: unfused\n") + kTile +
                                              QStringLiteral("choices: registers, SMs\n")));
    EXPECT_TRUE(error.startsWith(QStringLiteral("12: of: mlp unfused takes no tiles")))
        << error.toStdString();
}

TEST(LessonPlanLimit, BadChoicesAtTheirLine) {
    const QString step = kTileStep + QStringLiteral("of: lesson_fused\n") + kTile;
    const QString unknown =
        onlyError(parseStep(step + QStringLiteral("choices: registers, vibes\n")));
    EXPECT_TRUE(unknown.startsWith(
        QStringLiteral("14: choices: 'vibes' is not a resource the tile model names")))
        << unknown.toStdString();
    EXPECT_EQ(onlyError(parseStep(step + QStringLiteral("choices: registers\n"))),
              QStringLiteral("14: choices: give two or more different resources"));
    EXPECT_EQ(onlyError(parseStep(step + QStringLiteral("choices: registers, occupancy\n"))),
              QStringLiteral("14: choices: the tile's limit, SMs, is not among them"));
    EXPECT_TRUE(onlyError(parseStep(step))
                    .startsWith(QStringLiteral("10: a limit question needs choices:")));
}

TEST(LessonPlanLimit, TileFieldsOnlyWithALimitQuestion) {
    EXPECT_EQ(onlyError(parseStep(kAffine + QStringLiteral("question: How many?\nunit: passes\n"
                                                           "of: fused\ntile: 64,64\n"))),
              QStringLiteral("10: tile: only with kind: limit"));
    EXPECT_EQ(onlyError(parseStep(kAffine + QStringLiteral("view: tiles\n"))),
              QStringLiteral("7: view 'tiles': only with tiles: (a limit question's tile sweep)"));
    const QString noSweep = onlyError(parseStep(
        QString(kTileStep).remove(QStringLiteral("tiles: tiles-mlp-classroom-bf16-h200.json\n")) +
        QStringLiteral("of: lesson_fused\n") + kTile +
        QStringLiteral("choices: registers, SMs\n")));
    EXPECT_TRUE(noSweep.startsWith(QStringLiteral("9: a limit question needs tile:")))
        << noSweep.toStdString();
}

TEST(LessonPlanKernel, KernelFileIsFoundAndChecked) {
    const QString swiglu = QStringLiteral("pipeline: swiglu\ndimensions: N=4096\n");
    EXPECT_TRUE(onlyError(parseStep(swiglu + QStringLiteral("kernel: nowhere.cu\n")))
                    .startsWith(QStringLiteral("6: kernel nowhere.cu not found")));
    EXPECT_EQ(onlyError(parseStep(kAffine + QStringLiteral("kernel: lab_swiglu_scratch.cu\n"))),
              QStringLiteral("7: kernel lab_swiglu_scratch.cu is checked against pipeline swiglu, "
                             "not affine"));
    const LessonParse parse = parseStep(swiglu + QStringLiteral("kernel: lab_swiglu_scratch.cu\n"));
    ASSERT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    EXPECT_TRUE(parse.plan.steps.constFirst().show.kernelPath.endsWith(
        QStringLiteral("/lab_swiglu_scratch.cu")));
}

TEST(LessonPlan, ErrorTextNamesFileAndLine) {
    const LessonParse parse = parseStep(QStringLiteral("pipeline: afine\n"));
    EXPECT_TRUE(parse.errorText().startsWith(QStringLiteral("test.lesson.md:4: unknown pipeline")));
}

TEST(LessonPlan, UnreadableFile) {
    const LessonParse parse =
        loadLessonPlan(QStringLiteral("/nonexistent/plan.md"), shippedRecordingDirs());
    ASSERT_EQ(parse.errors.size(), 1);
    EXPECT_TRUE(parse.errorText().contains(QStringLiteral("/nonexistent/plan.md")));
}

}  // namespace
