// `fusescope-cli lesson check`: the shipped plan checked on the CPU backend (live elementwise
// steps run once, the MLP steps open their H200 recordings), and malformed plans refused at
// their line.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli/command.h"
#include "cli_process.h"
#include "runtime/backend.h"

namespace {

const QString kPlan =
    QDir(QStringLiteral(FUSESCOPE_LESSONS_DIR)).filePath(QStringLiteral("fused-kernels.lesson.md"));

QString writePlan(const QTemporaryDir& dir, const QString& text) {
    const QString path = dir.filePath(QStringLiteral("bad.lesson.md"));
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text.toUtf8());
    return path;
}

// `lesson check` of the shipped plan on the CPU backend with --no-run.
CliResult checkShippedPlanWithoutRunning() {
    return runCli({QStringLiteral("lesson"), QStringLiteral("check"), kPlan,
                   QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--no-run")});
}

TEST(CliLesson, ShippedPlanOnTheCpuRunsElementwiseStepsAndOpensRecordingsForTheRest) {
    const CliResult result = runCli({QStringLiteral("lesson"), QStringLiteral("check"), kPlan,
                                     QStringLiteral("--backend"), QStringLiteral("cpu")});
    ASSERT_EQ(result.exitCode, fusescope::cli::kExitOk) << result.err.toStdString();
    EXPECT_TRUE(result.out.contains(QStringLiteral("8 steps, valid"))) << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(
        QStringLiteral("1. The affine chain: runs live on the CPU backend (no GPU here)")))
        << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(
        QStringLiteral("4. The fused MLP: opens the shipped NVIDIA H200 recording "
                       "h200-mlp-classroom-bf16.fusescope.json")))
        << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(
        QStringLiteral("8. Homework with the expression lab: runs the expression out = exp(x) * "
                       "2 + 1 live on the CPU backend (no GPU here)")))
        << result.out.toStdString();
    EXPECT_EQ(result.out.count(QStringLiteral("ran once: ")), 5) << result.out.toStdString();
    // The homework's chain ran and answered its question (the affine stand-in answered before).
    const QString homework = result.out.section(QStringLiteral("8. Homework"), 1);
    EXPECT_TRUE(homework.contains(QStringLiteral("ran once: unfused ")))
        << result.out.toStdString();
    EXPECT_TRUE(homework.contains(QStringLiteral("answer: "))) << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QStringLiteral("answer: 4 passes")))
        << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QStringLiteral("answer: 5 passes")))
        << result.out.toStdString();
    EXPECT_FALSE(result.out.contains(QStringLiteral("WRONG")));
}

// On a GPU machine (the H200): every step of both shipped plans runs live, the MLP steps too,
// and every output is right.
TEST(CliLessonGpu, EveryStepOfTheShippedPlansRunsLiveOnTheGpu) {
    const fusescope::BackendAvailability availability = fusescope::probeBackends();
    if (!availability.cudaUsable) GTEST_SKIP() << "no usable GPU: " << availability.cudaReason;
    for (const char* plan : {"fused-kernels.lesson.md", "swiglu-apply-fusion.lesson.md"}) {
        const QString path = QDir(qEnvironmentVariable("FUSESCOPE_LESSONS_DIR",
                                                       QStringLiteral(FUSESCOPE_LESSONS_DIR)))
                                 .filePath(QLatin1String(plan));
        const CliResult result = runCli({QStringLiteral("lesson"), QStringLiteral("check"), path,
                                         QStringLiteral("--backend"), QStringLiteral("cuda")},
                                        300000);
        ASSERT_EQ(result.exitCode, fusescope::cli::kExitOk)
            << result.err.toStdString() << result.out.toStdString();
        const int steps = result.out.count(QRegularExpression(QStringLiteral("\\n  [0-9]+\\. ")));
        EXPECT_GT(steps, 0) << result.out.toStdString();
        EXPECT_EQ(result.out.count(QStringLiteral("live on the GPU")), steps)
            << result.out.toStdString();
        EXPECT_EQ(result.out.count(QStringLiteral("ran once: ")), steps)
            << result.out.toStdString();
        EXPECT_FALSE(result.out.contains(QStringLiteral("WRONG")));
        // The lab's kernel steps compile the starter and the solution as the Lab's Build does.
        if (QLatin1String(plan) == QLatin1String("swiglu-apply-fusion.lesson.md")) {
            EXPECT_EQ(result.out.count(QStringLiteral("compiled swiglu_lab; the Lab runs it")), 2)
                << result.out.toStdString();
        }
    }
}

TEST(CliLesson, NoRunSaysWhereEachStepsNumbersComeFrom) {
    const CliResult result = checkShippedPlanWithoutRunning();
    ASSERT_EQ(result.exitCode, fusescope::cli::kExitOk) << result.err.toStdString();
    EXPECT_FALSE(result.out.contains(QStringLiteral("ran once")));
    EXPECT_TRUE(result.out.contains(
        QStringLiteral("5. When not to fuse: opens the shipped NVIDIA H200 recording "
                       "h200-mlp-prefill-4096-bf16.fusescope.json (no GPU here)")))
        << result.out.toStdString();
}

// The tile question's answer comes from the shipped tile sweep, with no GPU and nothing run.
TEST(CliLesson, NoRunAnswersTheTileQuestionFromTheTileSweep) {
    const CliResult result = checkShippedPlanWithoutRunning();
    ASSERT_EQ(result.exitCode, fusescope::cli::kExitOk) << result.err.toStdString();
    const QString tile = result.out.section(QStringLiteral("6. Which resource limits this tile"), 1)
                             .section(QStringLiteral("\n  7. "), 0, 0);
    EXPECT_TRUE(
        tile.contains(QStringLiteral("the tile's limit comes from the shipped NVIDIA H200 "
                                     "tile sweep tiles-mlp-classroom-bf16-h200.json")))
        << result.out.toStdString();
    EXPECT_TRUE(
        tile.contains(QStringLiteral("answer: SMs (tile sweep "
                                     "tiles-mlp-classroom-bf16-h200.json on NVIDIA H200)")))
        << result.out.toStdString();
}

TEST(CliLesson, MalformedPlanIsRefusedAtItsLines) {
    QTemporaryDir dir;
    const QString path = writePlan(
        dir, QStringLiteral("# Bad\n\n## One\npipeline: afine\n\n## Two\npipeline: affine\n"
                            "question: How many?\nunit: furlongs\nof: fused\n"
                            "recording: nowhere.json\n"));
    const CliResult result = runCli({QStringLiteral("lesson"), QStringLiteral("check"), path});
    EXPECT_EQ(result.exitCode, fusescope::cli::kExitUsageError);
    EXPECT_TRUE(result.err.contains(path + QStringLiteral(":4: unknown pipeline 'afine'")))
        << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(path + QStringLiteral(":9: bad unit 'furlongs'")))
        << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(path + QStringLiteral(":11: recording nowhere.json not found")))
        << result.err.toStdString();
    EXPECT_TRUE(result.out.isEmpty());
}

TEST(CliLesson, UsageErrors) {
    EXPECT_EQ(runCli({QStringLiteral("lesson")}).exitCode, fusescope::cli::kExitUsageError);
    EXPECT_EQ(runCli({QStringLiteral("lesson"), QStringLiteral("check")}).exitCode,
              fusescope::cli::kExitUsageError);
    EXPECT_EQ(runCli({QStringLiteral("lesson"), QStringLiteral("check"), kPlan,
                      QStringLiteral("--backend"), QStringLiteral("tpu")})
                  .exitCode,
              fusescope::cli::kExitUsageError);
    const CliResult help = runCli({QStringLiteral("lesson"), QStringLiteral("--help")});
    EXPECT_EQ(help.exitCode, fusescope::cli::kExitOk);
    EXPECT_TRUE(help.out.contains(QStringLiteral("lesson check <plan.lesson.md>")));
}

}  // namespace
