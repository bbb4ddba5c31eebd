// A tile sweep against its peer's times at the same tiles: the ratio a cell shows, the cells
// within 1.10x, the worst, both bests and the best-or-tied configurations they share, in the
// words the explorer and the recording list show.
#include <gtest/gtest.h>

#include <QDir>

#include "model/tile_peer_comparison.h"
#include "model/tile_sweep_json.h"
#include "tiles/tile_model.h"

namespace fusescope::model {
namespace {

tiles::TimingSpread timing(double medianMs) {
    return {medianMs, medianMs, medianMs, medianMs, medianMs, 10};
}

// Four configurations along BLOCK_N, each measured and checked; `ours` and `theirs` are the
// medians (a non-positive peer median: the peer has none there).
tiles::TileSweep sweepOf(const std::vector<double>& ours, const std::vector<double>& theirs) {
    tiles::TileSweep sweep;
    tiles::TileSweepRequest& r = sweep.request;
    r.base.pipeline = "mlp";
    r.base.variant = "lesson_fused";
    r.base.problem.dimensions = {{"M", 512}, {"H", 1024}, {"I", 2816}};
    r.base.problem.dtype = DType::Bfloat16;
    r.base.problem.tuning = {{"block_m", 32},  {"block_n", 64}, {"block_h", 64},
                             {"block_i", 128}, {"tile_m", 128}, {"tile_i", 128}};
    r.axes = {{"block_n", {16, 32, 64, 128}}};
    sweep.limits = *tiles::knownGpuLimits("h200", DType::Bfloat16);
    const std::vector<tiles::TileConfiguration> configurations = tiles::configurationsOf(r);
    for (std::size_t k = 0; k < configurations.size(); ++k) {
        tiles::TileCell cell;
        cell.report = tiles::modelReport(configurations[k], sweep.limits);
        cell.measured = true;
        cell.checkOk = true;
        cell.time = timing(ours[k]);
        if (theirs[k] > 0) cell.peerTime = timing(theirs[k]);
        sweep.cells.push_back(cell);
    }
    tiles::describeCells(sweep);  // the sweep's own best and ties
    sweep.peer = tiles::PeerTimings{"Triton 3.6.0", "test"};
    return sweep;
}

TEST(TilePeerComparison, CountsTheCellsWithinTenPercentAndNamesTheWorst) {
    // Ratios 1.10 (on the line: within), 1.50, 0.80, and a cell the peer has no time for.
    const tiles::TileSweep sweep = sweepOf({1.1, 0.9, 0.4, 0.3}, {1.0, 0.6, 0.5, 0.0});
    const std::optional<TilePeerComparison> comparison = comparePeer(sweep);
    ASSERT_TRUE(comparison.has_value());
    EXPECT_EQ(comparison->bothRan, 3);
    EXPECT_EQ(comparison->withinRatio, 2);
    EXPECT_DOUBLE_EQ(comparison->worstRatio, 1.5);
    EXPECT_EQ(comparison->worstCell, 1);
    EXPECT_NEAR(comparison->medianRatio, 1.1, 1e-12);
    EXPECT_EQ(comparison->bestCell, 3);      // ours: 0.3 ms, no peer time there
    EXPECT_EQ(comparison->peerBestCell, 2);  // theirs: 0.5 ms
    EXPECT_TRUE(comparison->sharedTies.empty());
    EXPECT_FALSE(peerRatio(sweep.cells[3]).has_value());
    EXPECT_NEAR(*peerRatio(sweep.cells[1]), 1.5, 1e-12);

    const QString summary = peerSummary(sweep);
    EXPECT_TRUE(
        summary.contains(QStringLiteral("Triton 3.6.0 at the same tiles (BLOCK_M/N/H/I): 2 of 3 "
                                        "within 1.10x its time · ")))
        << qPrintable(summary);
    EXPECT_TRUE(summary.contains(QStringLiteral("median 1.10x, worst 1.50x at 32/32/64/128")))
        << qPrintable(summary);
    EXPECT_TRUE(summary.contains(QStringLiteral(
        "best 32/128/64/128 0.300 ms, Triton 3.6.0's 32/64/64/128 0.500 ms (0.60x)")))
        << qPrintable(summary);
    EXPECT_TRUE(summary.contains(QStringLiteral("no configuration best or tied in both")))
        << qPrintable(summary);
    // Our best has no peer time: only the peer's best is timed by both.
    EXPECT_TRUE(summary.endsWith(
        QStringLiteral(" · at Triton 3.6.0's best this kernel takes 1.33x its best")))
        << qPrintable(summary);
}

TEST(TilePeerComparison, WhereTheBestsDifferEachIsTimedByTheOther) {
    // Ours best at BLOCK_N 64 (1.00 ms; 1.04 at 32), the peer's at 32 (2.00 ms; 2.10 at 64):
    // outside each other's noise floor.
    const tiles::TileSweep sweep = sweepOf({2.0, 1.04, 1.0, 2.0}, {3.0, 2.0, 2.1, 3.0});
    const QString summary = peerSummary(sweep);
    EXPECT_TRUE(summary.contains(QStringLiteral(
        "no configuration best or tied in both · at Triton 3.6.0's best this kernel takes 1.04x "
        "its best · at this kernel's best Triton 3.6.0 takes 1.05x its best")))
        << qPrintable(summary);
}

TEST(TilePeerComparison, SharedTiesUseTheSweepsOwnNoiseFloor) {
    // Ours: best 0.300, 0.303 tied (1.5% floor). Theirs: best 0.298 at the tied cell, 0.302 tied.
    const tiles::TileSweep sweep = sweepOf({0.5, 0.303, 0.300, 0.4}, {0.6, 0.298, 0.302, 0.2 * 2});
    ASSERT_TRUE(sweep.cells[2].best);
    ASSERT_TRUE(sweep.cells[1].tiedWithBest);
    const std::optional<TilePeerComparison> comparison = comparePeer(sweep);
    ASSERT_TRUE(comparison.has_value());
    EXPECT_EQ(comparison->peerBestCell, 1);
    EXPECT_EQ(comparison->sharedTies, (std::vector<int>{1, 2}));
    EXPECT_TRUE(
        peerSummary(sweep).contains(QStringLiteral(" · tied in both: 32/32/64/128, 32/64/64/128")));
}

TEST(TilePeerComparison, AFailedCheckIsNotComparedAndNoPeerMeansNoComparison) {
    tiles::TileSweep sweep = sweepOf({1.0, 1.0, 1.0, 1.0}, {1.0, 0.5, 1.0, 1.0});
    sweep.cells[1].checkOk = false;
    const std::optional<TilePeerComparison> comparison = comparePeer(sweep);
    ASSERT_TRUE(comparison.has_value());
    EXPECT_EQ(comparison->bothRan, 3);
    EXPECT_EQ(comparison->withinRatio, 3);
    EXPECT_TRUE(peerCellLine(sweep.cells[1], sweep).contains(QStringLiteral("0.500 ms")))
        << qPrintable(peerCellLine(sweep.cells[1], sweep));

    sweep.peer.reset();
    EXPECT_FALSE(comparePeer(sweep).has_value());
    EXPECT_TRUE(peerSummary(sweep).isEmpty());
    EXPECT_TRUE(peerCellLine(sweep.cells[0], sweep).isEmpty());
}

TEST(TilePeerComparison, ACellLineSaysTheRatioOrWhyThePeerHasNoTime) {
    tiles::TileSweep sweep = sweepOf({1.2, 1.0, 1.0, 1.0}, {1.0, 0.0, 1.0, 1.0});
    sweep.cells[1].peerNote = "Triton refused: out of resource: shared memory";
    EXPECT_EQ(peerCellLine(sweep.cells[0], sweep),
              QStringLiteral("Triton 3.6.0 at these tiles: 1.00 ms; this kernel takes 1.20x its "
                             "time (over 1.10x)"));
    EXPECT_EQ(peerCellLine(sweep.cells[1], sweep),
              QStringLiteral("Triton 3.6.0: Triton refused: out of resource: shared memory"));
}

TEST(TilePeerComparison, TheCellSaysWhatThePeersKernelHoldsWhereItWasRecorded) {
    tiles::TileSweep sweep = sweepOf({1.2, 1.0, 1.0, 1.0}, {1.0, 1.0, 1.0, 1.0});
    sweep.cells[0].peerKernel = tiles::PeerKernel{128, 255, 0, 81920, 2};
    sweep.cells[1].peerKernel = tiles::PeerKernel{256, 96, 16, 49152, 0};
    EXPECT_EQ(peerKernelLine(sweep.cells[0], sweep),
              QStringLiteral("Triton 3.6.0's kernel: 128 threads per block · registers 255 per "
                             "thread · spills 0 B per thread · shared memory 81.9 kB · 2 blocks "
                             "per SM"));
    EXPECT_TRUE(
        peerKernelLine(sweep.cells[1], sweep).endsWith(QStringLiteral("blocks per SM not known")))
        << qPrintable(peerKernelLine(sweep.cells[1], sweep));
    EXPECT_TRUE(peerKernelLine(sweep.cells[2], sweep).isEmpty());  // none recorded
    EXPECT_EQ(peerKernelShort(*sweep.cells[0].peerKernel), QStringLiteral("128 thr 255 reg 2/SM"));
    EXPECT_EQ(peerKernelShort(*sweep.cells[1].peerKernel),
              QStringLiteral("256 thr 96 reg 16 B spill ?/SM"));
    sweep.peer.reset();
    EXPECT_TRUE(peerKernelLine(sweep.cells[0], sweep).isEmpty());
}

TEST(TilePeerComparison, TheShippedClassroomSweepHoldsTritonAtEveryCell) {
    const QDir folder(QStringLiteral(FUSESCOPE_SHIPPED_RECORDINGS_DIR));
    Result<tiles::TileSweep> sweep =
        loadTileSweep(folder.filePath(QStringLiteral("tiles-mlp-classroom-bf16-h200.json")));
    ASSERT_TRUE(sweep) << sweep.status().message();
    ASSERT_TRUE(sweep->peer.has_value());
    EXPECT_TRUE(QString::fromStdString(sweep->peer->name).startsWith(QStringLiteral("Triton")));
    const std::optional<TilePeerComparison> comparison = comparePeer(*sweep);
    ASSERT_TRUE(comparison.has_value());
    int measured = 0;
    for (const tiles::TileCell& cell : sweep->cells) measured += cell.measured ? 1 : 0;
    EXPECT_EQ(comparison->bothRan, measured);
    EXPECT_GE(comparison->withinRatio, 1);
    EXPECT_GE(comparison->bestCell, 0);
}

}  // namespace
}  // namespace fusescope::model
