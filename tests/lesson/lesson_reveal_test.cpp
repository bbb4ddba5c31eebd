// The reveal: each shipped plan's questions measured from the shipped H200 recordings, with
// the reason in words, the stage's moment, and how far typed predictions were.
#include <gtest/gtest.h>

#include "lesson_fixture.h"
#include "model/format.h"
#include "model/fusion_verdict.h"
#include "model/lesson/lesson_reveal.h"
#include "model/recording_json.h"
#include "model/stage/stage_timeline.h"
#include "support/text_contains.h"

using namespace fusescope::model;
using fusescope::Result;

namespace {

struct Measured {
    LessonStep step;
    Recording recording;
    MeasuredAnswer answer;
};

Measured measureShipped(const char* plan, int index) {
    const LessonParse parse = loadShippedPlan(plan);
    EXPECT_TRUE(parse.errors.isEmpty()) << parse.errorText().toStdString();
    Measured measured;
    measured.step = parse.plan.steps.at(index);
    Result<Recording> recording = loadRecording(measured.step.show.recordingPath);
    EXPECT_TRUE(recording.isOk());
    measured.recording = *recording;
    Result<MeasuredAnswer> answer = measureAnswer(measured.step, measured.recording);
    EXPECT_TRUE(answer.isOk()) << answer.status().message();
    if (answer) measured.answer = *answer;
    return measured;
}

const VariantResult& run(const Recording& recording, const char* variant) {
    for (const VariantResult& r : recording.runs)
        if (r.variant == variant) return r;
    throw std::runtime_error("no such run");
}

QString normalized(const LessonStep& step, const char* typed) {
    Result<QString> answer = normalizeAnswer(step, QString::fromUtf8(typed));
    return answer ? *answer
                  : QStringLiteral("error: ") + QString::fromStdString(answer.status().message());
}

TEST(LessonReveal, PassesOfTheUnfusedChainWithThePassModelsReason) {
    const Measured m = measureShipped("fused-kernels.lesson.md", 0);
    EXPECT_EQ(m.answer.value, run(m.recording, "unfused").passes);
    EXPECT_EQ(m.answer.text, QStringLiteral("%1 passes").arg(run(m.recording, "unfused").passes));
    EXPECT_TRUE(testsupport::containsAll(
        m.answer.reason,
        {QStringLiteral("unfused launches 2 kernels"), QStringLiteral("writes tmp")}));
    EXPECT_TRUE(m.answer.source.contains(QStringLiteral("NVIDIA H200")))
        << m.answer.source.toStdString();
    Result<StageTimeline> timeline = buildStageTimeline(run(m.recording, "unfused"));
    ASSERT_TRUE(timeline.isOk());
    ASSERT_TRUE(m.answer.momentNs);
    EXPECT_EQ(*m.answer.momentNs, timeline->kernelsEndNs);
    EXPECT_EQ(m.answer.momentVariant, QStringLiteral("unfused"));
}

TEST(LessonReveal, HowFarOffAPassCountIs) {
    const Measured m = measureShipped("fused-kernels.lesson.md", 0);
    const double passes = m.answer.value;
    const QString low = QString::number(passes - 2);
    const Judgement judged = judgeAnswer(m.step, low, m.answer);
    EXPECT_FALSE(judged.right);
    EXPECT_TRUE(judged.offText.startsWith(QStringLiteral("2 passes low")))
        << judged.offText.toStdString();
    ASSERT_TRUE(judged.relativeOff);
    EXPECT_DOUBLE_EQ(*judged.relativeOff, -2.0 / passes);
    EXPECT_TRUE(judgeAnswer(m.step, QString::number(passes), m.answer).right);
}

TEST(LessonReveal, AnswersAreReadInTheQuestionsUnit) {
    const Measured m = measureShipped("fused-kernels.lesson.md", 0);
    EXPECT_EQ(normalized(m.step, "4"), QStringLiteral("4"));
    EXPECT_EQ(normalized(m.step, "4 passes"), QStringLiteral("4"));
    EXPECT_TRUE(normalized(m.step, "3 GB").startsWith(QStringLiteral("error: bad unit 'GB'")));
    EXPECT_TRUE(
        normalized(m.step, "many").startsWith(QStringLiteral("error: 'many' is not a number")));
    const Measured peak = measureShipped("swiglu-apply-fusion.lesson.md", 2);
    EXPECT_EQ(normalized(peak.step, "1.2 GB"), QStringLiteral("1200"));
    EXPECT_EQ(normalized(peak.step, "800"), QStringLiteral("800"));
}

TEST(LessonReveal, SpeedupAtPrefillSaysWhyNotToFuse) {
    const Measured m = measureShipped("fused-kernels.lesson.md", 4);
    const double expected =
        run(m.recording, "lesson_fused").timeMs / run(m.recording, "unfused").timeMs;
    EXPECT_DOUBLE_EQ(m.answer.value, expected);
    EXPECT_GT(m.answer.value, 10.0);
    EXPECT_TRUE(testsupport::containsAll(
        m.answer.reason, {QStringLiteral("compute roof"), QStringLiteral("recomputes"),
                          QStringLiteral("unfused launches 5 kernels")}));
    // The step shows unfused, lesson_fused and production: the verdict's comparison with
    // merged_gate_up goes, and with it the sentences that go on explaining it (the shipped
    // recording's production loses to merged_gate_up, then says why, register by register and
    // kernel by kernel).
    EXPECT_FALSE(m.answer.reason.contains(QStringLiteral("merged_gate_up")));
    const QString verdict = fusionVerdict(m.recording);
    if (verdict.contains(QStringLiteral("slower than merged_gate_up")) &&
        verdict.contains(QStringLiteral("registers a thread"))) {
        EXPECT_FALSE(m.answer.reason.contains(QStringLiteral("registers a thread")))
            << m.answer.reason.toStdString();
    }
}

TEST(LessonReveal, OrderOfTheSiluGateByMeasuredTime) {
    const Measured m = measureShipped("fused-kernels.lesson.md", 2);
    ASSERT_EQ(m.answer.order.size(), 3);
    for (int i = 1; i < 3; ++i)
        EXPECT_LE(run(m.recording, m.answer.order[i - 1].toUtf8().constData()).timeMs,
                  run(m.recording, m.answer.order[i].toUtf8().constData()).timeMs);
    EXPECT_EQ(m.answer.order.constFirst(), QStringLiteral("fused"));
    EXPECT_TRUE(judgeAnswer(m.step, m.answer.order.join(QStringLiteral(", ")), m.answer).right);
    const QString reversed = m.answer.order.constLast() + QStringLiteral(", ") + m.answer.order[1] +
                             QStringLiteral(", ") + m.answer.order.constFirst();
    EXPECT_EQ(judgeAnswer(m.step, reversed, m.answer).offText, QStringLiteral("1 of 3 in place"));
    EXPECT_TRUE(
        normalized(m.step, "fused < scratch").startsWith(QStringLiteral("error: order all 3")));
    EXPECT_EQ(normalized(m.step, "fused<scratch<two_launch"),
              QStringLiteral("fused, scratch, two_launch"));
}

TEST(LessonReveal, WinnerOfTheFusedMlp) {
    const Measured m = measureShipped("fused-kernels.lesson.md", 3);
    EXPECT_EQ(m.answer.text, m.answer.order.constFirst());
    EXPECT_NE(m.answer.text, QStringLiteral("lesson_fused"));
    EXPECT_EQ(judgeAnswer(m.step, QStringLiteral("lesson_fused"), m.answer).offText,
              QStringLiteral("wrong: %1 is fastest").arg(m.answer.text));
    EXPECT_TRUE(normalized(m.step, "merged_gate_up")
                    .startsWith(QStringLiteral("error: 'merged_gate_up' is not a variant")));
}

TEST(LessonReveal, PeakInFlightAndTheMomentItHappens) {
    const Measured m = measureShipped("swiglu-apply-fusion.lesson.md", 2);
    EXPECT_DOUBLE_EQ(m.answer.value, run(m.recording, "fused").peakBytesInFlight / 1e6);
    EXPECT_GT(m.answer.value, 0.0);
    Result<StageTimeline> timeline = buildStageTimeline(run(m.recording, "fused"));
    ASSERT_TRUE(timeline.isOk());
    ASSERT_TRUE(m.answer.momentNs);
    quint64 inFlight = 0;
    for (const StageArray& array : timeline->arrays)
        if (array.existsAt(*m.answer.momentNs)) inFlight += array.bytes;
    quint64 most = 0;
    for (const StageArray& array : timeline->arrays) {
        quint64 at = 0;
        for (const StageArray& other : timeline->arrays)
            if (other.existsAt(array.allocatedAtNs)) at += other.bytes;
        most = std::max(most, at);
    }
    EXPECT_EQ(inFlight, most);
}

TEST(LessonReveal, PassMomentIsTheEndOfThatSweep) {
    const Measured m = measureShipped("fused-kernels.lesson.md", 6);
    Result<StageTimeline> timeline = buildStageTimeline(run(m.recording, "scratch"));
    ASSERT_TRUE(timeline.isOk());
    ASSERT_GE(timeline->sweeps.size(), 5);
    ASSERT_TRUE(m.answer.momentNs);
    EXPECT_EQ(*m.answer.momentNs, timeline->sweeps[4].endNs);
}

TEST(LessonReveal, ResultsWithoutTheStepsVariantsAreRefused) {
    const Measured m = measureShipped("fused-kernels.lesson.md", 0);
    Recording partial = m.recording;
    std::erase_if(partial.runs, [](const VariantResult& r) { return r.variant == "unfused"; });
    Result<MeasuredAnswer> answer = measureAnswer(m.step, partial);
    ASSERT_FALSE(answer.isOk());
    EXPECT_EQ(answer.status().message(), "the results have no run of affine unfused");
}

}  // namespace

namespace {

TEST(LessonRevealNumbers, OneLinePerVariantWithTheStepsNumbers) {
    const Measured m = measureShipped("fused-kernels.lesson.md", 0);
    const QStringList lines = revealNumbers(m.step, m.recording);
    ASSERT_EQ(lines.size(), 2);
    const VariantResult& fused = run(m.recording, "fused");
    EXPECT_TRUE(lines[1].startsWith(QStringLiteral("fused: %1 passes · ").arg(fused.passes)))
        << lines[1].toStdString();
    EXPECT_TRUE(lines[1].contains(QStringLiteral("requested"))) << lines[1].toStdString();
    EXPECT_TRUE(lines[1].endsWith(formatDuration(fused.timeMs))) << lines[1].toStdString();
}

}  // namespace

namespace {

TEST(LessonRevealReasons, TrafficQuestionsExplainTheGapTimeQuestionsTheVerdict) {
    const LessonParse traffic =
        parseStep(QStringLiteral("pipeline: affine\nrecording: h200-affine-2e26.fusescope.json\n"
                                 "question: Bytes?\nunit: bytes\nof: unfused\n"));
    ASSERT_TRUE(traffic.errors.isEmpty()) << traffic.errorText().toStdString();
    Result<Recording> recording = loadRecording(traffic.plan.steps.constFirst().show.recordingPath);
    ASSERT_TRUE(recording.isOk());
    Result<MeasuredAnswer> bytes = measureAnswer(traffic.plan.steps.constFirst(), *recording);
    ASSERT_TRUE(bytes.isOk());
    EXPECT_TRUE(bytes->reason.contains(QStringLiteral("Measured DRAM traffic of unfused differs")))
        << bytes->reason.toStdString();
    const Judgement off =
        judgeAnswer(traffic.plan.steps.constFirst(), QStringLiteral("1e8"), *bytes);
    EXPECT_TRUE(off.offText.endsWith(QStringLiteral(" under)"))) << off.offText.toStdString();
    EXPECT_FALSE(off.offText.contains(QStringLiteral("requested"))) << off.offText.toStdString();

    const Measured time = measureShipped("fused-kernels.lesson.md", 4);
    EXPECT_FALSE(time.answer.reason.contains(QStringLiteral("Measured DRAM traffic")));
    const Measured passes = measureShipped("fused-kernels.lesson.md", 0);
    EXPECT_FALSE(passes.answer.reason.contains(QStringLiteral("Measured DRAM traffic")));
}

}  // namespace

namespace {

TEST(LessonRevealNumbers, NoNumbersAskedNoLines) {
    Measured m = measureShipped("fused-kernels.lesson.md", 0);
    m.step.reveal.numbers.clear();
    EXPECT_TRUE(revealNumbers(m.step, m.recording).isEmpty());
}

}  // namespace
