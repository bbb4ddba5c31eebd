// `fusescope-cli resources` and `tiles` as a user runs them, on any machine: the model report for
// a GPU of the table, refusals and bad grids with their reasons, and a small tile sweep on the CPU
// backend whose file the explorer can open.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/cli_process.h"
#include "model/tile_sweep_json.h"
#include "support/text_contains.h"

namespace {

using testsupport::containsAll;

// The command refused before anything runs: exit code 2, and `reason` in its message.
void expectRefused(const QStringList& arguments, const char* reason) {
    SCOPED_TRACE(arguments.join(QLatin1Char(' ')).toStdString());
    const CliResult result = runCli(arguments);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_TRUE(result.err.contains(reason)) << result.err.toStdString();
}

TEST(CliResources, DecodeOnTheTablesH200SaysWhichSmsIdle) {
    const CliResult result = runCli({"resources", "--pipeline", "mlp", "--preset", "decode-1",
                                     "--dtype", "bf16", "--tile", "16,128,64,64", "--gpu", "h200"});
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    EXPECT_TRUE(containsAll(result.out, {"32 blocks on 132 SMs: 100 SMs idle",
                                         "model only, for the NVIDIA H200", "Predicted"}));
}

TEST(CliResources, ARefusedConfigurationIsReportedWithItsReason) {
    // TF32 at 128/128/128/128: two stages of 128-float rows of x, gate and up, and down's tile.
    // (bfloat16 at 128/128/128/128 fits on Hopper, 225 KiB: its wgmma kernel keeps the hidden
    // tile in registers.)
    const CliResult result = runCli({"resources", "--preset", "classroom", "--dtype", "tf32",
                                     "--tile", "128,128,128,128", "--gpu", "h200"});
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    EXPECT_TRUE(result.out.contains("REFUSED        needs 449.0 KiB (2 stages) of shared memory"))
        << result.out.toStdString();
}

TEST(CliResources, BadTilesAndUnknownGpusAreRefusedBeforeAnything) {
    expectRefused({"resources", "--preset", "classroom", "--tile", "64,64,32", "--gpu", "h200"},
                  "give 4 values");
    expectRefused({"resources", "--preset", "classroom", "--gpu", "tpu"}, "h200");
}

TEST(CliResources, TheProductionKernelsTilesSetItsGrid) {
    const CliResult result =
        runCli({"resources", "--variant", "production", "--preset", "prefill-512", "--dtype",
                "bf16", "--tile", "64,128", "--gpu", "h200"});
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    // ceil(512/64) x ceil(14336/128); 3 stages of (64 + 2 x 128) rows x 64 x 2 B = 120 KiB.
    EXPECT_TRUE(
        containsAll(result.out, {"8 x 112 = 896 blocks of 256 threads", "120.0 KiB dynamic"}));
    EXPECT_FALSE(result.out.contains("REFUSED")) << result.out.toStdString();
}

TEST(CliResources, ABadProductionTileIsRefusedWithItsReason) {
    expectRefused({"resources", "--variant", "production", "--preset", "prefill-512", "--dtype",
                   "bf16", "--tile", "tile_m=96,tile_i=64", "--gpu", "h200"},
                  "TILE_M 96 is not 64 or 128");
    const CliResult fp32 =
        runCli({"resources", "--variant", "production", "--preset", "prefill-512", "--dtype",
                "fp32", "--tile", "64,32", "--gpu", "h200"});
    ASSERT_EQ(fp32.exitCode, 0) << fp32.err.toStdString();
    EXPECT_TRUE(fp32.out.contains("REFUSED        float32 runs only the precompiled"))
        << fp32.out.toStdString();
    expectRefused({"run", "--pipeline", "mlp", "--variants", "production", "--preset", "odd",
                   "--tile", "tile_m=128,tile_i=48", "--backend", "cpu"},
                  "TILE_I 48");
    // On the CPU the production fusion is one kernel whatever its tiles: only the default runs.
    const CliResult cpu = runCli({"tiles", "--variant", "production", "--shape", "M=64,H=128,I=256",
                                  "--dtype", "bf16", "--grid", "tile_i=64,128", "--backend", "cpu",
                                  "--repeat", "3", "--no-references"});
    ASSERT_EQ(cpu.exitCode, 0) << cpu.err.toStdString();
    EXPECT_TRUE(containsAll(cpu.out, {"1 measured, 1 refused",
                                      "the CPU backend runs the production fusion the same way"}));
    const CliResult axis = runCli({"tiles", "--variant", "production", "--preset", "prefill-512",
                                   "--grid", "block_m=16,32", "--backend", "cpu"});
    EXPECT_NE(axis.exitCode, 0);
    EXPECT_TRUE(axis.err.contains("block_m is a tile of the lesson_fused kernel"))
        << axis.err.toStdString();
}

TEST(CliTiles, BadGridsAreRefused) {
    expectRefused({"tiles", "--grid", "block_m=200..300", "--backend", "cpu"}, "no allowed value");
    expectRefused({"tiles", "--grid", "vector=1,4", "--backend", "cpu"}, "no tuning vector");
}

TEST(CliTiles, ASmallSweepOnTheCpuWritesAFileTheExplorerOpens) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("tiles.json"));
    const CliResult result = runCli({"tiles",
                                     "--backend",
                                     "cpu",
                                     "--shape",
                                     "M=4,H=64,I=64",
                                     "--dtype",
                                     "bf16",
                                     "--tile",
                                     "16,16,16,16",
                                     "--grid",
                                     "block_m=16,32",
                                     "--grid",
                                     "block_n=16,64",
                                     "--repeat",
                                     "2",
                                     "--warmup",
                                     "0",
                                     "--no-references",
                                     "--json",
                                     path});
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    EXPECT_TRUE(
        containsAll(result.out, {"BEST", "refused", "4 configurations: 2 measured, 2 refused"}));
    const auto sweep = fusescope::model::loadTileSweep(path);
    ASSERT_TRUE(sweep) << sweep.status().message();
    ASSERT_EQ(sweep->cells.size(), 4u);
    EXPECT_TRUE(sweep->cells[0].measured);
    EXPECT_TRUE(sweep->cells[0].checkOk);
    ASSERT_TRUE(sweep->cells[2].report.refusal.has_value());  // BLOCK_M 32 > M = 4

    // `show` prints the saved sweep's table again; without a peer, no peer columns.
    const CliResult shown = runCli({"show", path});
    ASSERT_EQ(shown.exitCode, 0) << shown.err.toStdString();
    EXPECT_TRUE(containsAll(shown.out, {"tile sweep of mlp lesson_fused, replayed", "BEST",
                                        "4 configurations: 2 measured, 2 refused"}));
    EXPECT_FALSE(shown.out.contains(QStringLiteral("÷ peer"))) << shown.out.toStdString();
}

TEST(CliTiles, ShowPrintsTheShippedClassroomSweepBesideTriton) {
    const CliResult shown = runCli(
        {"show", QStringLiteral(FUSESCOPE_SHIPPED_DIR "/tiles-mlp-classroom-bf16-h200.json")});
    ASSERT_EQ(shown.exitCode, 0) << shown.err.toStdString();
    EXPECT_TRUE(containsAll(
        shown.out, {"Triton 3.6.0 ms", "÷ peer", "Triton 3.6.0 at the same tiles (BLOCK_M/N/H/I): ",
                    "of 48 within 1.10x its time", "Triton 3.6.0's times: "}))
        << shown.out.toStdString();
}

// The shipped classroom sweep with its peer replaced, written into `dir`.
QString sweepWithPeer(const QTemporaryDir& dir, const QString& name, const QString& source) {
    QFile shipped(QStringLiteral(FUSESCOPE_SHIPPED_DIR "/tiles-mlp-classroom-bf16-h200.json"));
    if (!shipped.open(QIODevice::ReadOnly)) return {};
    QJsonObject document = QJsonDocument::fromJson(shipped.readAll()).object();
    document.insert(QStringLiteral("peer"), QJsonObject{{QStringLiteral("name"), name},
                                                        {QStringLiteral("source"), source}});
    const QString path = dir.filePath(QStringLiteral("hostile-tiles.json"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(document).toJson()) < 0)
        return {};
    return path;
}

TEST(CliTiles, ShowRefusesAPeerNameWithControlCharacters) {
    QTemporaryDir dir;
    const QString path = sweepWithPeer(dir, QStringLiteral("\x1b[2J\x1b[31mfake"), QString());
    ASSERT_FALSE(path.isEmpty());
    const CliResult shown = runCli({"show", path});
    EXPECT_EQ(shown.exitCode, 2);
    EXPECT_TRUE(shown.err.contains(QStringLiteral("peer.name"))) << shown.err.toStdString();
    EXPECT_FALSE(shown.out.contains(QChar(0x1b)));
}

TEST(CliTiles, ShowPrintsAPeersSourceOnOneLine) {
    QTemporaryDir dir;
    const QString path =
        sweepWithPeer(dir, QStringLiteral("Peer"), QStringLiteral("first\nsecond"));
    ASSERT_FALSE(path.isEmpty());
    const CliResult shown = runCli({"show", path});
    ASSERT_EQ(shown.exitCode, 0) << shown.err.toStdString();
    EXPECT_TRUE(shown.out.contains(QStringLiteral("Peer's times: first")))
        << shown.out.toStdString();
    EXPECT_FALSE(shown.out.contains(QStringLiteral("first\nsecond")));
}

TEST(CliTiles, HelpDocumentsTheCommands) {
    const CliResult tiles = runCli({"tiles", "--help"});
    EXPECT_EQ(tiles.exitCode, 0);
    EXPECT_TRUE(containsAll(tiles.out, {"--grid", "FUSESCOPE_KERNEL_CACHE"}));
    const CliResult resources = runCli({"resources", "--help"});
    EXPECT_EQ(resources.exitCode, 0);
    EXPECT_TRUE(resources.out.contains("--gpu")) << resources.out.toStdString();
}

}  // namespace
