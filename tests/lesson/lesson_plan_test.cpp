// The plan format: the shipped plans open clean, and every kind of malformed plan is refused
// with a clear message at its line.
#include <gtest/gtest.h>

#include "lesson_fixture.h"

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

TEST(LessonPlan, ShippedFusedKernelsPlanOpensWithItsSevenSections) {
    const LessonParse parse =
        loadLessonPlan(shippedPlan("fused-kernels.lesson.md"), shippedRecordingDirs());
    ASSERT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    EXPECT_EQ(parse.plan.title, QStringLiteral("Fused kernels"));
    ASSERT_EQ(parse.plan.steps.size(), 7);
    EXPECT_EQ(parse.plan.steps[0].title, QStringLiteral("The affine chain"));
    EXPECT_EQ(parse.plan.steps[4].title, QStringLiteral("When not to fuse"));
    EXPECT_FALSE(parse.plan.steps[6].show.expression.isEmpty());
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
    const LessonParse parse =
        loadLessonPlan(shippedPlan("swiglu-apply-fusion.lesson.md"), shippedRecordingDirs());
    ASSERT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    EXPECT_EQ(parse.plan.title, QStringLiteral("SwiGLU: apply fusion"));
    ASSERT_EQ(parse.plan.steps.size(), 5);
    EXPECT_EQ(parse.plan.steps[0].show.kernelFile, QStringLiteral("starter.cu"));
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
    EXPECT_TRUE(onlyError(parse).startsWith(QStringLiteral("3: step 'A step' shows nothing")))
        << onlyError(parse).toStdString();
}

TEST(LessonPlan, UnknownFieldAtItsLine) {
    const LessonParse parse = parseStep(kAffine + QStringLiteral("note: typo\n"));
    EXPECT_TRUE(onlyError(parse).startsWith(QStringLiteral("7: unknown field 'note:'")))
        << onlyError(parse).toStdString();
}

TEST(LessonPlan, FieldGivenTwice) {
    const LessonParse parse = parseStep(kAffine + QStringLiteral("view: stage\nview: results\n"));
    EXPECT_EQ(onlyError(parse),
              QStringLiteral("8: view: given twice in this step (first at line 7)"));
}

TEST(LessonPlan, UnknownPipelineAtItsLine) {
    const LessonParse parse = parseStep(QStringLiteral("pipeline: afine\n"));
    EXPECT_TRUE(onlyError(parse).startsWith(QStringLiteral("4: unknown pipeline 'afine'")))
        << onlyError(parse).toStdString();
}

TEST(LessonPlan, UnknownVariantAtItsLine) {
    const LessonParse parse =
        parseStep(QStringLiteral("pipeline: affine\nvariants: unfused, fast\n"));
    EXPECT_TRUE(
        onlyError(parse).startsWith(QStringLiteral("5: pipeline affine has no variant 'fast'")))
        << onlyError(parse).toStdString();
}

TEST(LessonPlan, BadProblemAtItsLine) {
    const LessonParse parse = parseStep(QStringLiteral("pipeline: affine\ndimensions: N=0\n"));
    ASSERT_EQ(parse.errors.size(), 1) << parse.errorText().toStdString();
    EXPECT_EQ(parse.errors.constFirst().line, 5);
}

TEST(LessonPlan, UnknownRecordingAtItsLine) {
    const LessonParse parse =
        parseStep(kAffine + QStringLiteral("recording: h200-nothing.fusescope.json\n"));
    EXPECT_TRUE(onlyError(parse).startsWith(
        QStringLiteral("7: recording h200-nothing.fusescope.json not found")))
        << onlyError(parse).toStdString();
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
    EXPECT_TRUE(onlyError(parse).startsWith(
        QStringLiteral("4: pipeline mlp runs at class speed only on a GPU")))
        << onlyError(parse).toStdString();
}

TEST(LessonPlan, BadUnitAtItsLine) {
    const LessonParse parse =
        parseStep(kAffine + QStringLiteral("question: How far?\nunit: furlongs\nof: fused\n"));
    EXPECT_EQ(
        onlyError(parse),
        QStringLiteral("8: bad unit 'furlongs': say passes, bytes, speedup, peak-mb, gbps or ms"));
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
