// Honest numbers and messages at the edges of fusescope-cli: the copy roofline at sizes where the
// CPU kernels still run on one thread, one rule per option whatever the wrong value, a sweep
// start that does not fit, and names that carry terminal escape sequences.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>

#include "cli_process.h"
#include "model/recording_json.h"

using namespace fusescope;

// The roofline copy went multi-threaded at a quarter of the N the kernels did, so small CPU runs
// showed 1470% (N = 16384) and 793% (N = 32768) of it, every time. Measured alike, a kernel that
// moves its bytes once stays near the copy: the bound leaves room for timing noise, not for 8x.
// Microsecond timings on a busy machine can be preempted once, so the best of three runs counts.
double highestShareOfTheRoofline(const QString& json, const char* n, std::string* table) {
    const CliResult result = runCli({"run", "--pipeline", "affine", "--variants", "all", "--n", n,
                                     "--repeat", "50", "--backend", "cpu", "--json", json});
    *table = result.out.toStdString() + result.err.toStdString();
    const Result<model::Recording> recording = model::loadRecording(json);
    if (result.exitCode != 0 || !recording || !(recording->roofline.gbps() > 0)) return 1e9;
    double highest = 0.0;
    for (const model::VariantResult& run : recording->runs)
        highest = std::max(highest, run.effectiveGBps() / recording->roofline.gbps());
    return highest;
}

TEST(CliEdges, CpuRunsStayNearTheCopyRooflineAtSmallN) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    for (const char* n : {"16384", "32768"}) {
        const QString json = dir.filePath(QStringLiteral("affine-%1.json").arg(n));
        double best = 1e9;
        std::string table;
        for (int attempt = 0; attempt < 3 && best >= 3.0; ++attempt)
            best = std::min(best, highestShareOfTheRoofline(json, n, &table));
        EXPECT_LT(best, 3.0) << "N = " << n << "\n" << table;
    }
}

TEST(CliEdges, EveryWrongVectorWidthGetsTheSameRule) {
    for (const char* width : {"0", "2", "3", "8", "wide", "-1"}) {
        const CliResult result = runCli({"run", "--pipeline", "swiglu", "--vector", width});
        EXPECT_EQ(result.exitCode, 2);
        EXPECT_EQ(result.err.trimmed(),
                  QStringLiteral("fusescope-cli: --vector %1: the vector width must be 1 or 4")
                      .arg(QString::fromLatin1(width)));
    }
}

TEST(CliEdges, SweepStartThatDoesNotFitSaysSoNotThatTheEndIsBelowIt) {
    const CliResult result =
        runCli({"sweep", "--pipeline", "affine", "--backend", "cpu", "--from", "2^40"});
    EXPECT_EQ(result.exitCode, 2) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains("--from 2^40")) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains("at most")) << result.err.toStdString();
    EXPECT_FALSE(result.err.contains("below")) << result.err.toStdString();
}

TEST(CliEdges, EscapeSequencesInAPipelineNameArePrintedEscaped) {
    const CliResult result = runCli({"run", "--pipeline", "\x1b[31mred\x07"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_FALSE(result.err.contains(QChar(0x1b))) << "raw escape reached the terminal";
    EXPECT_FALSE(result.err.contains(QChar(0x07)));
    EXPECT_TRUE(result.err.contains("'\\x1b[31mred\\x07'")) << result.err.toStdString();
}

// A device name with terminal escapes is refused at load, naming the character by its code; no
// raw escape reaches the terminal.
TEST(CliEdges, EscapeSequencesInARecordingsDeviceNameAreRefusedWithoutReachingTheTerminal) {
    const AffineCpuRecording recorded("rec.json", "4096");
    ASSERT_EQ(recorded.run.exitCode, 0) << recorded.run.err.toStdString();
    const QString& json = recorded.json;
    QFile file(json);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonObject device = root.value("device").toObject();
    device.insert("name", QStringLiteral("evil\x1b]0;owned\x07 CPU\x1b[2J"));
    root.insert("device", device);
    root.insert("producer", QStringLiteral("tool\x1b[5m"));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(root).toJson());
    file.close();

    const CliResult show = runCli({"show", json});
    EXPECT_EQ(show.exitCode, 2) << show.err.toStdString();
    for (const QString& text : {show.out, show.err}) {
        EXPECT_FALSE(text.contains(QChar(0x1b))) << "raw escape reached the terminal";
        EXPECT_FALSE(text.contains(QChar(0x07)));
    }
    EXPECT_TRUE(show.err.contains("U+001b")) << show.err.toStdString();
}
