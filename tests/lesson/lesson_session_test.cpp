// A class's answers: tallied, kept across a reopen, exported as CSV with the measured value.
#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include "lesson_fixture.h"
#include "model/lesson/lesson_session.h"

using namespace fusescope::model;
using fusescope::Result;

namespace {

LessonPlan shipped() {
    const LessonParse parse = loadShippedPlan("fused-kernels.lesson.md");
    EXPECT_TRUE(parse.errors.isEmpty());
    return parse.plan;
}

TEST(LessonSession, ShowOfHandsTalliesTheSameAnswer) {
    LessonSession session = startLessonSession(QStringLiteral("plan.md"), 3);
    session.addAnswer(0, QStringLiteral("4"), 7);
    session.addAnswer(0, QStringLiteral("2"), 3);
    session.addAnswer(0, QStringLiteral("4"), 2);
    ASSERT_EQ(session.steps[0].answers.size(), 2);
    EXPECT_EQ(session.steps[0].answers[0].hands, 9);
    EXPECT_EQ(session.handsFor(0), 12);
    session.addAnswer(5, QStringLiteral("4"), 1);
    session.addAnswer(1, QStringLiteral("4"), 0);
    EXPECT_EQ(session.handsFor(1), 0);
}

TEST(LessonSession, ReopeningContinuesWhereTheClassStopped) {
    QTemporaryDir dir;
    const LessonPlan plan = shipped();
    LessonSession session = startLessonSession(plan.path, plan.steps.size());
    session.current = 2;
    session.addAnswer(0, QStringLiteral("4"), 5);
    session.steps[0].revealed = true;
    MeasuredAnswer measured;
    measured.value = 4;
    measured.text = QStringLiteral("4 passes");
    measured.source = QStringLiteral("timing + model on NVIDIA H200");
    session.steps[0].measured = measured;
    const QString path = lessonSessionPath(dir.path(), plan.path);
    EXPECT_TRUE(path.startsWith(dir.path()));
    ASSERT_TRUE(saveLessonSession(session, path).isOk());
    Result<LessonSession> reopened = loadLessonSession(path, plan.path, plan.steps.size());
    ASSERT_TRUE(reopened.isOk()) << reopened.status().message();
    EXPECT_EQ(reopened->current, 2);
    ASSERT_EQ(reopened->steps[0].answers.size(), 1);
    EXPECT_EQ(reopened->steps[0].answers[0].hands, 5);
    EXPECT_TRUE(reopened->steps[0].revealed);
    ASSERT_TRUE(reopened->steps[0].measured);
    EXPECT_EQ(reopened->steps[0].measured->text, QStringLiteral("4 passes"));
    EXPECT_FALSE(reopened->steps[1].revealed);

    Result<LessonSession> other =
        loadLessonSession(path, dir.filePath(QStringLiteral("other.md")), 7);
    EXPECT_FALSE(other.isOk());
}

TEST(LessonSession, CsvHasOneRowPerQuestionAndAnswer) {
    const LessonPlan plan = shipped();
    LessonSession session = startLessonSession(plan.path, plan.steps.size());
    session.addAnswer(0, QStringLiteral("2"), 3);
    session.addAnswer(0, QStringLiteral("4"), 10);
    session.addAnswer(3, QStringLiteral("lesson_fused"), 4);
    MeasuredAnswer measured;
    measured.value = 4;
    measured.text = QStringLiteral("4 passes");
    measured.source = QStringLiteral("timing + model, replayed on NVIDIA H200");
    session.steps[0].measured = measured;
    const QStringList rows =
        QString::fromUtf8(lessonCsv(plan, session)).trimmed().split(QLatin1Char('\n'));
    ASSERT_EQ(rows.size(), 4);
    EXPECT_TRUE(rows[0].startsWith(
        QStringLiteral("lesson,step,title,question,answer,hands,unit,measured")));
    EXPECT_EQ(
        rows[1],
        QStringLiteral("Fused kernels,1,The affine chain,How many whole-array memory passes "
                       "does the unfused chain make?,2,3,passes,4,4 passes,"
                       "2 passes low (50.0% under),\"timing + model, replayed on NVIDIA H200\""));
    EXPECT_TRUE(rows[2].contains(QStringLiteral(",4,10,passes,4,4 passes,right,")));
    EXPECT_TRUE(rows[3].startsWith(QStringLiteral("Fused kernels,4,The fused MLP,")));
    EXPECT_TRUE(rows[3].endsWith(QStringLiteral("lesson_fused,4,variant,,,,")))
        << rows[3].toStdString();
}

TEST(LessonSession, CsvExportIsCheckedAndAtomic) {
    QTemporaryDir dir;
    const LessonPlan plan = shipped();
    LessonSession session = startLessonSession(plan.path, plan.steps.size());
    session.addAnswer(0, QStringLiteral("=cmd()"), 1);
    const QString path = dir.filePath(QStringLiteral("answers.csv"));
    ASSERT_TRUE(exportLessonCsv(plan, session, path).isOk());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll().contains("\"'=cmd()\""));
    EXPECT_FALSE(
        exportLessonCsv(plan, session, dir.filePath(QStringLiteral("missing/a.csv"))).isOk());
}

}  // namespace
