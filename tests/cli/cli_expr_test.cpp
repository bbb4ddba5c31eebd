// `fusescope-cli expr`: the predicted ledger of each variant, the generated CUDA, and a parse
// error shown at its character with exit code 2.
#include <gtest/gtest.h>

#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli_process.h"
#include "model/recording_json.h"

namespace {

TEST(CliExpr, PrintsTheLedgerOfEveryVariant) {
    const CliResult result = runCli({"expr", "--n", "2^20", "t = x * 2 | out = t + 3"});
    ASSERT_FALSE(result.crashed);
    EXPECT_EQ(result.exitCode, 0) << result.err.toStdString();
    const std::string out = result.out.toStdString();
    // 2^20 floats are 4.19 MB an array: unfused and split 4 passes, fused 2.
    EXPECT_NE(out.find("unfused: 2 kernel(s), 4 passes, 16.8 MB requested"), std::string::npos)
        << out;
    EXPECT_NE(out.find("fused: 1 kernel(s), 2 passes, 8.39 MB requested"), std::string::npos)
        << out;
    EXPECT_NE(out.find("split: 2 kernel(s), 4 passes"), std::string::npos) << out;
    EXPECT_EQ(out.find("__global__"), std::string::npos) << "CUDA only with --print-cuda";
}

TEST(CliExpr, PrintCudaPrintsEveryKernelAtTheChosenWidth) {
    const CliResult result = runCli({"expr", "--print-cuda", "--vector", "1", "out = silu(g) * u"});
    EXPECT_EQ(result.exitCode, 0) << result.err.toStdString();
    const std::string out = result.out.toStdString();
    for (const char* entry : {"k1_silu_v1(\n", "k2_mul_v1(\n", "fused_v1(\n"})
        EXPECT_NE(out.find(std::string("extern \"C\" __global__ void ") + entry), std::string::npos)
            << entry << "\n"
            << out;
    EXPECT_EQ(out.find("float4"), std::string::npos) << out;
}

TEST(CliExpr, AParseErrorPointsAtItsCharacter) {
    const CliResult result = runCli({"expr", "out = exp(x, y)"});
    EXPECT_EQ(result.exitCode, 2);
    const QStringList lines = result.err.split('\n');
    ASSERT_GE(lines.size(), 3) << result.err.toStdString();
    EXPECT_TRUE(lines[0].contains("at character 12: expected ')': 'exp' takes one argument"))
        << result.err.toStdString();
    // The caret sits under the comma (the text is indented by two spaces after the prefix).
    const int textStart = lines[1].indexOf("out = exp");
    ASSERT_GE(textStart, 0) << result.err.toStdString();
    EXPECT_EQ(lines[2].indexOf('^'), textStart + 11) << result.err.toStdString();
}

TEST(CliExpr, RefusesAMissingExpressionAndABadWidth) {
    EXPECT_EQ(runCli({"expr"}).exitCode, 2);
    EXPECT_EQ(runCli({"expr", "--vector", "3", "out = x * 2"}).exitCode, 2);
}

}  // namespace

namespace {

TEST(CliRunExpr, RunsEveryVariantOnTheCpuAndTheRecordingKeepsTheExpression) {
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath("expr.json");
    const QString text = "t = x * 2 | out = silu(t) * y";
    const CliResult result = runCli({"run", "--expr", text, "--variants", "all", "--n", "2^16",
                                     "--backend", "cpu", "--repeat", "2", "--json", path});
    ASSERT_FALSE(result.crashed);
    EXPECT_EQ(result.exitCode, 0) << result.err.toStdString() << result.out.toStdString();
    for (const char* variant : {"unfused", "fused", "split"})
        EXPECT_TRUE(
            result.out.contains(QRegularExpression(QStringLiteral("\n%1 .* OK\n").arg(variant))))
            << variant << "\n"
            << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(text)) << result.out.toStdString();

    // The recording names the expression and reopens in a program that never typed it.
    const fusescope::Result<fusescope::model::Recording> recording =
        fusescope::model::loadRecording(path);
    ASSERT_TRUE(recording) << recording.status().message();
    ASSERT_EQ(recording->pipelineDescriptions.size(), 1u);
    EXPECT_EQ(recording->pipelineDescriptions.front().formula, text.toStdString());
    const CliResult shown = runCli({"show", path});
    EXPECT_EQ(shown.exitCode, 0) << shown.err.toStdString();
    EXPECT_TRUE(shown.out.contains(text)) << shown.out.toStdString();
    EXPECT_TRUE(shown.out.contains("split")) << shown.out.toStdString();
}

TEST(CliRunExpr, RefusesABadExpressionAndBothPipelineAndExpr) {
    const CliResult bad = runCli({"run", "--expr", "out = x +", "--backend", "cpu"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.err.contains("--expr: the expression does not parse, at character 10:"))
        << bad.err.toStdString();
    const CliResult both =
        runCli({"run", "--expr", "out = x + 1", "--pipeline", "affine", "--backend", "cpu"});
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_TRUE(both.err.contains("--pipeline or --expr, not both")) << both.err.toStdString();
}

}  // namespace
