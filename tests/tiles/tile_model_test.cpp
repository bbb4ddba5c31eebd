// The model side of the tile explorer against hand-made device limits: refusals with their
// reasons, launch geometry, grid words, the predicted time, limiter words and ties.
#include <gtest/gtest.h>

#include <algorithm>

#include "pipelines/registry.h"
#include "support/mlp_tile_configurations.h"
#include "tiles/tile_model.h"

namespace fusescope::tiles {
namespace {

using testsupport::lessonTiles;

DeviceLimits handMadeLimits() {
    return testsupport::testGpuLimits(100, 100);
}

// A refusal of `kind` whose reason says `words` (empty: whatever the reason says).
::testing::AssertionResult refusedAs(const std::optional<TileRefusal>& refusal, RefusalKind kind,
                                     const std::string& words = {}) {
    if (!refusal) return ::testing::AssertionFailure() << "not refused";
    if (refusal->kind != kind)
        return ::testing::AssertionFailure()
               << "refused as kind " << static_cast<int>(refusal->kind) << ": " << refusal->reason;
    if (refusal->reason.find(words) == std::string::npos)
        return ::testing::AssertionFailure() << "'" << words << "' not in: " << refusal->reason;
    return ::testing::AssertionSuccess();
}

TEST(TileRefusal, AcceptsTheLessonDefaultsOnTheClassroomShape) {
    const auto c = lessonTiles(512, 1024, 2816, DType::Bfloat16, 32, 64, 64, 64);
    EXPECT_FALSE(refusalFor(c, handMadeLimits()).has_value());
}

TEST(TileRefusal, SharedMemoryOverThePerBlockLimitNamesBothSizes) {
    // bfloat16, 2 stages: 2 x (128x128 + 2 x 128x128) x 2 B + 128x128 x 2 B (down, one buffer)
    // = 192 + 32 KiB = 224 KiB; the hidden tile (32 KiB) goes into a slot of 96 KiB.
    const auto c = lessonTiles(512, 1024, 2816, DType::Bfloat16, 128, 128, 128, 128);
    const std::optional<TileRefusal> refusal = refusalFor(c, handMadeLimits());
    ASSERT_TRUE(refusal.has_value());
    EXPECT_EQ(refusal->kind, RefusalKind::SharedMemory);
    EXPECT_NE(refusal->reason.find("needs 224.0 KiB (2 stages) of shared memory per block"),
              std::string::npos)
        << refusal->reason;
    EXPECT_NE(refusal->reason.find(" allows 100.0 KiB"), std::string::npos) << refusal->reason;
    // The same tiles fit a device with more shared memory.
    DeviceLimits larger = handMadeLimits();
    larger.sharedBytesPerBlockOptIn = 300 * 1024;
    EXPECT_FALSE(refusalFor(c, larger).has_value());
}

TEST(TileRefusal, ThreeStagesWhereTheyFitElseTwo) {
    const auto c = lessonTiles(512, 1024, 2816, DType::Bfloat16, 64, 64, 64, 64);
    DeviceLimits l = handMadeLimits();
    l.sharedBytesPerBlockOptIn = 1024 * 1024;
    EXPECT_EQ(geometryOf(c, l).pipelineStages, 3);
    // 3 stages: 3 x (8 + 16) KiB + 8 KiB down = 80 KiB (the hidden tile in a slot); 2 stages:
    // 56 KiB.
    EXPECT_EQ(geometryOf(c, l).dynamicSharedBytes, 80u * 1024);
    l.sharedBytesPerBlockOptIn = 72 * 1024;
    EXPECT_EQ(geometryOf(c, l).pipelineStages, 2);
    EXPECT_EQ(geometryOf(c, l).dynamicSharedBytes, 56u * 1024);
}

TEST(TileRefusal, TwoStagesWhereThreeWouldLeaveAFourWarpBlockAloneOnItsMultiprocessor) {
    DeviceLimits l = handMadeLimits();
    l.sharedBytesPerBlockOptIn = 227 * 1024;
    // 16/64/64/128: a stage is (16 + 2 x 128) x 64 x 2 B = 34 KiB; down 16 KiB, the hidden tile
    // in a slot. 3 stages (118 KiB) fit one block in 228 KiB, 2 stages (84 KiB) two.
    const auto narrow = lessonTiles(512, 1024, 2816, DType::Bfloat16, 16, 64, 64, 128);
    EXPECT_EQ(geometryOf(narrow, l).threadsPerBlock, 128);
    EXPECT_EQ(geometryOf(narrow, l).pipelineStages, 2);
    EXPECT_EQ(geometryOf(narrow, l).dynamicSharedBytes, 84u * 1024);
    // 64/64/128/64 runs eight warps, whose registers allow one block anyway: 3 stages (152 KiB).
    const auto deep = lessonTiles(512, 1024, 2816, DType::Bfloat16, 64, 64, 128, 64);
    EXPECT_EQ(geometryOf(deep, l).threadsPerBlock, 256);
    EXPECT_EQ(geometryOf(deep, l).pipelineStages, 3);
    EXPECT_EQ(geometryOf(deep, l).dynamicSharedBytes, 152u * 1024);
}

TEST(TileRefusal, MoreThreadsThanTheDeviceAllows) {
    DeviceLimits l = handMadeLimits();
    l.maxThreadsPerBlock = 64;  // the kernel runs 128
    EXPECT_TRUE(
        refusedAs(refusalFor(lessonTiles(512, 1024, 2816, DType::Bfloat16, 32, 64, 64, 64), l),
                  RefusalKind::Threads, "128 threads"));
}

TEST(TileRefusal, TilesThatDoNotFitTheMmaShapes) {
    EXPECT_TRUE(refusedAs(
        refusalFor(lessonTiles(512, 1024, 2816, DType::Bfloat16, 32, 24, 64, 64), handMadeLimits()),
        RefusalKind::MmaShape, "BLOCK_N 24"));
}

TEST(TileRefusal, ValuesOutsideTheAllowedOnes) {
    EXPECT_TRUE(refusedAs(
        refusalFor(lessonTiles(512, 1024, 2816, DType::Float32, 32, 64, 48, 64), handMadeLimits()),
        RefusalKind::NotTunable));
}

TEST(TileRefusal, TilesLargerThanTheProblemAreAllPadding) {
    // Decode: M = 1 fills one 16-row tile; BLOCK_M 32 would compute 31 rows of zeros.
    EXPECT_FALSE(
        refusalFor(lessonTiles(1, 4096, 14336, DType::Bfloat16, 16, 64, 64, 64), handMadeLimits()));
    EXPECT_TRUE(refusedAs(
        refusalFor(lessonTiles(1, 4096, 14336, DType::Bfloat16, 32, 64, 64, 64), handMadeLimits()),
        RefusalKind::LargerThanProblem, "BLOCK_M 32 > M"));
    // Odd shapes round up to 16: H = 1000 takes BLOCK_N 128 (1008 > 128), I = 20 does not take
    // BLOCK_I 64 (rounded up: 32).
    DeviceLimits roomy = handMadeLimits();
    roomy.sharedBytesPerBlockOptIn = 1024 * 1024;
    EXPECT_FALSE(refusalFor(lessonTiles(3, 1000, 2750, DType::Bfloat16, 16, 128, 128, 128), roomy));
    const auto small =
        refusalFor(lessonTiles(3, 1000, 20, DType::Bfloat16, 16, 64, 64, 64), handMadeLimits());
    ASSERT_TRUE(small.has_value());
    EXPECT_NE(small->reason.find("BLOCK_I 64 > I"), std::string::npos) << small->reason;
}

TEST(TileRefusal, OnlyTheLessonAndProductionKernelsTakeTiles) {
    TileConfiguration c = lessonTiles(512, 1024, 2816, DType::Bfloat16, 32, 64, 64, 64);
    c.variant = "merged_gate_up";
    EXPECT_TRUE(refusedAs(refusalFor(c, handMadeLimits()), RefusalKind::NotTunable));
}

TEST(TileReport, GridAgainstTheSmCountInWords) {
    EXPECT_EQ(gridWords(32, 132, 0), "32 blocks on 132 SMs: 100 SMs idle");
    EXPECT_EQ(gridWords(1, 132, 0), "1 block on 132 SMs: 131 SMs idle");
    EXPECT_EQ(gridWords(264, 132, 2), "264 blocks on 132 SMs at 2 per SM: 1.00 waves");
    EXPECT_EQ(gridWords(132, 132, 0), "132 blocks on 132 SMs");
}

TEST(TileReport, DecodeLeavesSmsIdleAndIsMemoryBound) {
    // M = 1, H = 4096: 1 x 64 blocks at BLOCK_N 64.
    const auto c = lessonTiles(1, 4096, 14336, DType::Bfloat16, 16, 64, 64, 64);
    DeviceLimits l = handMadeLimits();
    l.multiprocessors = 132;
    l.sharedBytesPerBlockOptIn = 227 * 1024;
    const ResourceReport r = modelReport(c, l);
    EXPECT_FALSE(r.refusal.has_value());
    EXPECT_EQ(r.launch.blocks, 64u);
    EXPECT_EQ(r.idleMultiprocessors, 68);
    EXPECT_EQ(r.gridWords, "64 blocks on 132 SMs: 68 SMs idle");
    // Gate and up re-read once per output-column tile: 64 x 2 x I x H x 2 B; down once; x once
    // per output-column tile and I chunk (64 x 224); out written once.
    const double weight = 14336.0 * 4096.0 * 2.0, x = 4096.0 * 2.0;
    EXPECT_DOUBLE_EQ(static_cast<double>(r.modelBytes),
                     64 * 2 * weight + weight + x * 64 * 224 + x);
    EXPECT_EQ(r.predictedBound, "memory");
    EXPECT_NEAR(r.predictedMs, static_cast<double>(r.modelBytes) / (1000.0 * 1e6), 1e-9);
}

TEST(TileReport, TheLoadedKernelRefinesWavesAndRefusesWhenNoBlockFits) {
    const auto c = lessonTiles(512, 1024, 2816, DType::Bfloat16, 32, 64, 64, 64);
    DeviceLimits l = handMadeLimits();
    l.multiprocessors = 132;
    const ResourceReport model = modelReport(c, l);
    EXPECT_EQ(model.launch.blocks, 16u * 16u);
    CompiledResources compiled;
    compiled.known = true;
    compiled.registersPerThread = 128;
    compiled.blocksPerMultiprocessor = 2;
    const ResourceReport live = withCompiled(model, compiled);
    EXPECT_NEAR(live.waves, 256.0 / 264.0, 1e-12);
    EXPECT_EQ(live.gridWords, "256 blocks on 132 SMs at 2 per SM: 0.97 waves");
    compiled.blocksPerMultiprocessor = 0;
    const ResourceReport none = withCompiled(model, compiled);
    ASSERT_TRUE(none.refusal.has_value());
    EXPECT_EQ(none.refusal->kind, RefusalKind::LaunchFailed);
}

TEST(TileReport, TheTableOfKnownGpus) {
    const std::optional<DeviceLimits> h200 = knownGpuLimits("H200", DType::Bfloat16);
    ASSERT_TRUE(h200.has_value());
    EXPECT_EQ(h200->multiprocessors, 132);
    EXPECT_EQ(h200->computeSource, "spec sheet");
    EXPECT_GT(h200->computeTflops, knownGpuLimits("h200", DType::Float32)->computeTflops);
    EXPECT_FALSE(knownGpuLimits("tpu", DType::Bfloat16).has_value());
}

TEST(TimingSpreadTest, MedianAndQuartilesInterpolate) {
    const TimingSpread s = spreadOf({4.0, 1.0, 3.0, 2.0, 5.0});
    EXPECT_DOUBLE_EQ(s.medianMs, 3.0);
    EXPECT_DOUBLE_EQ(s.q1Ms, 2.0);
    EXPECT_DOUBLE_EQ(s.q3Ms, 4.0);
    EXPECT_DOUBLE_EQ(s.minMs, 1.0);
    EXPECT_DOUBLE_EQ(s.maxMs, 5.0);
    EXPECT_EQ(s.repeats, 5);
    EXPECT_DOUBLE_EQ(spreadOf({1.0, 2.0}).medianMs, 1.5);
    EXPECT_EQ(spreadOf({}).repeats, 0);
}

TileCell measuredCell(double median, double q1, double q3) {
    TileCell cell;
    cell.report.configuration.pipeline = "mlp";
    cell.report.configuration.variant = "lesson_fused";
    cell.measured = true;
    cell.checkOk = true;
    cell.time = {median, q1, q3, q1, q3, 10};
    return cell;
}

TEST(TileTies, TheNoiseFloorWidensTightInterquartileRanges) {
    // IQRs of +-0.1% that are 2% apart: told apart by the IQR, tied by the 1.5% floor.
    const TimingSpread a{1.000, 0.999, 1.001, 0.99, 1.01, 10};
    const TimingSpread b{1.020, 1.019, 1.021, 1.01, 1.03, 10};
    EXPECT_TRUE(overlaps(a, b));
    const TimingSpread c{1.040, 1.039, 1.041, 1.03, 1.05, 10};  // 4% apart
    EXPECT_FALSE(overlaps(a, c));
    // A wide IQR still counts as it is.
    const TimingSpread wide{1.10, 0.95, 1.20, 0.9, 1.3, 10};
    EXPECT_TRUE(overlaps(a, wide));
}

TEST(TileTies, OverlappingIntervalsTieWithTheBestAndDisjointOnesDoNot) {
    TileSweep sweep;
    sweep.cells = {measuredCell(1.00, 0.98, 1.02), measuredCell(1.01, 1.00, 1.05),
                   measuredCell(1.10, 1.08, 1.12)};
    TileCell refused;
    refused.report.refusal = TileRefusal{RefusalKind::SharedMemory, "too big"};
    sweep.cells.push_back(refused);
    TileCell failed = measuredCell(0.50, 0.49, 0.51);  // fastest, but wrong: never the best
    failed.checkOk = false;
    sweep.cells.push_back(failed);
    describeCells(sweep);
    EXPECT_TRUE(sweep.cells[0].best);
    EXPECT_FALSE(sweep.cells[0].tiedWithBest);
    EXPECT_TRUE(sweep.cells[1].tiedWithBest);
    EXPECT_FALSE(sweep.cells[2].tiedWithBest);
    EXPECT_FALSE(sweep.cells[3].tiedWithBest || sweep.cells[3].best);
    EXPECT_FALSE(sweep.cells[4].best || sweep.cells[4].tiedWithBest);
    EXPECT_TRUE(sweep.cells[3].limiters.empty());
}

// A sweep with copy and compute roofs, and a cell that spills, leaves SMs idle and runs at low
// occupancy.
TileSweep sweepWithRoofs() {
    TileSweep sweep;
    sweep.limits.copyBandwidthGBps = 4000.0;
    sweep.limits.computeTflops = 800.0;
    return sweep;
}

TileCell spillingCell(int spilledBytes) {
    TileCell cell = measuredCell(1.0, 1.0, 1.0);
    cell.report.compiled.known = true;
    cell.report.compiled.localBytesPerThread = spilledBytes;
    cell.report.compiled.theoreticalOccupancy = 0.0625;
    cell.report.compiled.blocksPerMultiprocessor = 1;
    cell.report.idleMultiprocessors = 4;
    cell.report.gridWords = "128 blocks on 132 SMs: 4 SMs idle";
    return cell;
}

TEST(TileLimiters, NameSpillsIdleSmsReReadsAndTheRoofs) {
    TileSweep sweep = sweepWithRoofs();
    sweep.references.push_back({"production", "", {}, 1000, 0.0, true});
    TileCell cell = spillingCell(96);
    cell.report.modelBytes = 3100;
    cell.gbps = 2000.0;
    cell.tflops = 600.0;
    const std::vector<std::string> words = limitersOf(cell, sweep);
    ASSERT_EQ(words.size(), 5u);
    EXPECT_EQ(words[0], "spills 96 B/thread");
    EXPECT_EQ(words[1], "128 blocks on 132 SMs: 4 SMs idle");
    EXPECT_EQ(words[2], "re-reads 3.1x the bytes of production");
    EXPECT_EQ(words[3], "occupancy 6% (1 block/SM)");
    EXPECT_EQ(words[4], "compute bound: 75% of the measured GEMM roof");

    TileCell plain = measuredCell(1.0, 1.0, 1.0);
    plain.report.modelBytes = 1000;
    plain.gbps = 8000.0;  // requested bytes twice the copy roof: the L2 served them
    EXPECT_EQ(limitersOf(plain, sweep).front(),
              "the L2 serves re-reads: requested bytes at 2.0x the copy roof");
    plain.gbps = 3000.0;
    EXPECT_EQ(limitersOf(plain, sweep).front(), "memory bound: 75% of the copy roof");
    plain.gbps = 400.0;
    plain.tflops = 80.0;
    EXPECT_EQ(limitersOf(plain, sweep).front(),
              "latency: 10% of the copy roof, 10% of the GEMM roof");
}

// Each limiter belongs to one of the model's resources, the list a lesson's question offers.
TEST(TileLimiters, EachNamesItsResource) {
    const TileSweep sweep = sweepWithRoofs();
    TileCell cell = spillingCell(80);
    cell.gbps = 3000.0;
    const std::vector<TileLimit> limits = limitsOf(cell, sweep);
    ASSERT_EQ(limits.size(), 4u);
    EXPECT_EQ(limits[0].resource, "registers");
    EXPECT_EQ(limits[1].resource, "SMs");
    EXPECT_EQ(limits[2].resource, "occupancy");
    EXPECT_EQ(limits[3].resource, "DRAM bandwidth");
    const std::vector<std::string> words = limitersOf(cell, sweep);
    ASSERT_EQ(words.size(), limits.size());
    for (std::size_t i = 0; i < limits.size(); ++i) {
        EXPECT_EQ(limits[i].words, words[i]);
        EXPECT_NE(
            std::find(limitingResources().begin(), limitingResources().end(), limits[i].resource),
            limitingResources().end());
    }
    TileCell refused;
    refused.report.refusal = TileRefusal{RefusalKind::SharedMemory, "shared memory 256 KiB"};
    ASSERT_EQ(limitsOf(refused, sweep).size(), 1u);
    EXPECT_EQ(limitsOf(refused, sweep).front().resource, "shared memory");
    EXPECT_EQ(limitsOf(refused, sweep).front().words, "shared memory 256 KiB");
    refused.report.refusal = TileRefusal{RefusalKind::NoCompiler, "no NVRTC"};
    EXPECT_TRUE(limitsOf(refused, sweep).empty());
}

TEST(TileSweepGrid, ConfigurationsVaryTheFirstAxisSlowest) {
    TileSweepRequest request;
    request.base = lessonTiles(512, 1024, 2816, DType::Bfloat16, 32, 64, 64, 64);
    request.axes = {{"block_m", {16, 32}}, {"block_n", {16, 64, 128}}};
    const std::vector<TileConfiguration> all = configurationsOf(request);
    ASSERT_EQ(all.size(), 6u);
    EXPECT_EQ(all[0].problem.tuningValue("block_m"), 16);
    EXPECT_EQ(all[2].problem.tuningValue("block_n"), 128);
    EXPECT_EQ(all[3].problem.tuningValue("block_m"), 32);
    EXPECT_EQ(all[5].problem.tuningValue("block_h"), 64);  // the base's value
    EXPECT_EQ(tilesText(all[1]), "block_m=16 block_n=64 block_h=64 block_i=64");
}

// The lesson's Triton kernel multiplies with wgmma at 64 rows and more on Hopper, in bfloat16 and
// TF32, and so does this kernel: its geometry there is a warpgroup per 64 rows and unpadded
// shared tiles; below 64 rows, and on Ampere, the mma.sync kernel's.
TEST(TileGeometry, Tf32AtSixtyFourRowsOnHopperIsTheWarpgroupKernel) {
    DeviceLimits hopper = handMadeLimits();
    hopper.computeCapabilityMajor = 9;
    DeviceLimits ampere = hopper;
    ampere.computeCapabilityMajor = 8;
    const auto wide = lessonTiles(512, 1024, 2816, DType::Tf32, 64, 64, 64, 64);
    EXPECT_EQ(geometryOf(wide, hopper).threadsPerBlock, 128);
    EXPECT_EQ(geometryOf(wide, ampere).threadsPerBlock, 256);
    // Neither stages a hidden tile of its own (registers; a ring slot); the wgmma kernel asks 1 KiB
    // more to start its swizzled tiles on 1 KiB.
    EXPECT_EQ(geometryOf(wide, hopper).dynamicSharedBytes,
              geometryOf(wide, ampere).dynamicSharedBytes + 1024);
    EXPECT_EQ(geometryOf(lessonTiles(512, 1024, 2816, DType::Tf32, 128, 16, 32, 32), hopper)
                  .threadsPerBlock,
              256);
    // Below 64 rows TF32 runs four warps of mma.sync, as Triton's kernel there.
    EXPECT_EQ(geometryOf(lessonTiles(512, 1024, 2816, DType::Tf32, 32, 64, 64, 64), hopper)
                  .threadsPerBlock,
              128);
}

}  // namespace
}  // namespace fusescope::tiles
