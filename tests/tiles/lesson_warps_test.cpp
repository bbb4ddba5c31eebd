// The lesson kernel's warps a block, per tile shape, dtype and GPU: the launch the tile model
// reports, the compile request NVRTC gets, and (where NVRTC is installed, no GPU needed) that the
// source compiles: eight warps of mma.sync in bfloat16 and TF32 (sm_80), and on Hopper the wgmma
// kernel (sm_90a) at every width it multiplies.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/runtime_compiler.h"
#include "support/lesson_compile.h"

namespace fusescope::mlp {
namespace {

using testsupport::expectCompiles;
using testsupport::hasOption;
using testsupport::kH200SharedOptIn;
using testsupport::lessonRequest;
using testsupport::lessonTilesText;

TEST(LessonWarps, ManyAccumulatorsOrTf32RowsRunEightWarps) {
    // bfloat16: 64 or more accumulators a thread with four warps, BLOCK_M x (2 BLOCK_I + BLOCK_N)
    // / 128; TF32 on mma.sync: BLOCK_M of 64 or more.
    EXPECT_EQ(lessonTiledThreads({64, 64, 64, 64}, DType::Bfloat16, 8, kH200SharedOptIn, 0), 256);
    EXPECT_EQ(lessonTiledThreads({32, 128, 64, 64}, DType::Bfloat16, 8, kH200SharedOptIn, 0), 256);
    // On the H200 bfloat16 on mma.sync (BLOCK_M below 64) ran faster with four warps.
    EXPECT_EQ(lessonTiledThreads({32, 128, 64, 64}, DType::Bfloat16, 9, kH200SharedOptIn, 0), 128);
    EXPECT_EQ(lessonTiledThreads({64, 16, 16, 16}, DType::Bfloat16, 8, kH200SharedOptIn, 0), 128);
    EXPECT_EQ(lessonTiledThreads({32, 64, 64, 64}, DType::Tf32, 8, kH200SharedOptIn, 0), 128);
    EXPECT_EQ(lessonTiledThreads({64, 64, 64, 64}, DType::Tf32, 8, kH200SharedOptIn, 0), 256);
    EXPECT_EQ(lessonTiledThreads({128, 16, 32, 128}, DType::Tf32, 8, kH200SharedOptIn, 0), 256);
    EXPECT_EQ(lessonTiledThreads({32, 64, 64, 64}, DType::Bfloat16, 8, kH200SharedOptIn, 0), 128);
    EXPECT_EQ(lessonTiledThreads({16, 128, 128, 16}, DType::Tf32, 8, kH200SharedOptIn, 0), 128);
    // The CUDA-core float32 kernel's thread layout is fixed at four warps.
    EXPECT_EQ(lessonTiledThreads({64, 64, 64, 64}, DType::Float32, 8, kH200SharedOptIn, 0), 128);
}

TEST(LessonWarps, TheCompileRequestNamesTheWarps) {
    EXPECT_TRUE(
        hasOption(lessonRequest({64, 64, 64, 64}, DType::Bfloat16, 3, 1, 8), "-DFS_WARPS=8"));
    EXPECT_TRUE(hasOption(lessonRequest({16, 64, 64, 64}, DType::Tf32, 3, 1, 9), "-DFS_WARPS=4"));
}

TEST(LessonWarps, NvrtcCompilesTheEightWarpKernels) {
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    if (!nvrtc) GTEST_SKIP() << nvrtc.status().message();
    const LessonTiles cases[] = {{64, 64, 64, 64}, {128, 128, 64, 32}, {64, 16, 16, 64}};
    for (const DType dtype : {DType::Bfloat16, DType::Tf32})
        for (const LessonTiles& tiles : cases) {
            SCOPED_TRACE(lessonTilesText(tiles));
            // On compute capability 9 these tiles are the wgmma kernel (below).
            const CompileRequest request = lessonRequest(tiles, dtype, 2, 1, 8);
            ASSERT_TRUE(hasOption(request, "-DFS_WARPS=8"));
            expectCompiles(**nvrtc, request);
        }
}

TEST(LessonWarps, HopperBfloat16AndTf32AtBlockM64OrMoreRunWarpgroupMma) {
    // A warpgroup of four warps per 64 rows; sm_90a, the only target with wgmma.
    EXPECT_TRUE(lessonTiledWarpgroups({64, 64, 64, 64}, DType::Bfloat16, 9));
    EXPECT_TRUE(lessonTiledWarpgroups({128, 16, 16, 128}, DType::Bfloat16, 9));
    EXPECT_FALSE(lessonTiledWarpgroups({32, 64, 64, 64}, DType::Bfloat16, 9));
    EXPECT_FALSE(lessonTiledWarpgroups({64, 64, 64, 64}, DType::Bfloat16, 8));
    EXPECT_FALSE(lessonTiledWarpgroups({64, 64, 64, 64}, DType::Bfloat16, 10));
    EXPECT_TRUE(lessonTiledWarpgroups({64, 64, 64, 64}, DType::Tf32, 9));
    EXPECT_FALSE(lessonTiledWarpgroups({32, 64, 64, 64}, DType::Tf32, 9));
    EXPECT_FALSE(lessonTiledWarpgroups({64, 64, 64, 64}, DType::Tf32, 8));
    EXPECT_FALSE(lessonTiledWarpgroups({64, 64, 64, 64}, DType::Float32, 9));
    // Threads: 128 per 64 rows, and at BLOCK_M 64 two warpgroups splitting the columns where one
    // would hold 128 accumulators a thread (BLOCK_I + BLOCK_N / 2 >= 128) and the grid has at most
    // one block for each multiprocessor (or that is unknown: 0).
    const std::pair<LessonTiles, int> threads[] = {
        {{64, 64, 64, 64}, 128},  {{128, 16, 32, 32}, 256},  {{64, 128, 32, 128}, 256},
        {{64, 64, 32, 128}, 256}, {{64, 128, 128, 64}, 256}, {{64, 64, 128, 64}, 128}};
    for (const std::uint64_t grid : {0, 1})
        for (const auto& [tiles, expected] : threads) {
            EXPECT_EQ(lessonTiledThreads(tiles, DType::Bfloat16, 9, kH200SharedOptIn, grid),
                      expected)
                << lessonTilesText(tiles) << " grid " << grid;
            EXPECT_EQ(lessonTiledThreads(tiles, DType::Tf32, 9, kH200SharedOptIn, grid), expected)
                << lessonTilesText(tiles) << " grid " << grid;
        }
    // Where the grid has blocks for two or more a multiprocessor (prefill-512's 256 blocks at
    // 64/128/64/64) and two blocks of one warpgroup fit the shared memory with two stages (89 KiB
    // a block there), one warpgroup: two such blocks keep 255 registers a thread, where two of
    // eight warps would be bounded at 128.
    EXPECT_EQ(lessonTiledThreads({64, 128, 64, 64}, DType::Bfloat16, 9, kH200SharedOptIn, 2), 128);
    EXPECT_EQ(lessonTiledThreads({64, 16, 32, 128}, DType::Tf32, 9, kH200SharedOptIn, 4), 128);
    // Where only one fits (64/16/128/128: 165 KiB with two stages; TF32 64/16/64/128: 169 KiB),
    // two warpgroups still; BLOCK_M 128 keeps its two, one per 64 rows.
    EXPECT_EQ(lessonTiledThreads({64, 16, 128, 128}, DType::Bfloat16, 9, kH200SharedOptIn, 4), 256);
    EXPECT_EQ(lessonTiledThreads({64, 16, 64, 128}, DType::Tf32, 9, kH200SharedOptIn, 4), 256);
    EXPECT_EQ(lessonTiledThreads({128, 64, 64, 64}, DType::Bfloat16, 9, kH200SharedOptIn, 2), 256);
    EXPECT_TRUE(
        hasOption(lessonRequest({64, 128, 64, 64}, DType::Bfloat16, 3, 0, 9, 2), "-DFS_WARPS=4"));
    EXPECT_TRUE(
        hasOption(lessonRequest({64, 128, 64, 64}, DType::Bfloat16, 3, 0, 9, 1), "-DFS_WARPS=8"));
    const CompileRequest request = lessonRequest({128, 64, 64, 64}, DType::Bfloat16, 3, 1, 9);
    EXPECT_TRUE(hasOption(request, "-DFS_WGMMA=1"));
    EXPECT_TRUE(hasOption(request, "-DFS_WARPS=8"));
    EXPECT_EQ(request.architecture, "sm_90a");
    EXPECT_EQ(lessonRequest({32, 64, 64, 64}, DType::Bfloat16, 3, 1, 9).architecture, "sm_90");
    // Neither kernel has a hidden tile of its own (the wgmma kernel keeps it in registers, the
    // mma.sync kernel in a ring slot); the wgmma kernel asks 1 KiB to start its tiles on 1 KiB.
    EXPECT_EQ(lessonTiledSharedBytes({64, 64, 64, 64}, DType::Bfloat16, 3, 9),
              lessonTiledSharedBytes({64, 64, 64, 64}, DType::Bfloat16, 3, 8) + 1024);
    // TF32 on wgmma: unpadded float rows (the swizzle spreads the banks), no hidden tile: three
    // stages of x, gate and up, down's tile and the 1 KiB.
    EXPECT_EQ(lessonTiledSharedBytes({64, 32, 64, 16}, DType::Tf32, 3, 9),
              3u * (64 * 64 + 2 * 16 * 64) * 4 + 32 * 16 * 4 + 1024);
    EXPECT_EQ(lessonRequest({64, 64, 64, 64}, DType::Tf32, 3, 1, 9).architecture, "sm_90a");
}

// The copy pipeline's depth follows what the H200 measured (mlp_lesson_tiled.cpp).
TEST(LessonWarps, StagesFollowTheMeasuredRules) {
    // Two stages where three would leave a four-warp block alone on its SM, but not on the wgmma
    // kernel from BLOCK_N 64.
    EXPECT_EQ(lessonTiledStages({64, 32, 128, 64}, DType::Bfloat16, kH200SharedOptIn, 9, 0), 2);
    EXPECT_EQ(lessonTiledStages({64, 64, 128, 64}, DType::Bfloat16, kH200SharedOptIn, 9, 0), 3);
    EXPECT_EQ(lessonTiledStages({64, 64, 64, 64}, DType::Tf32, kH200SharedOptIn, 9, 0), 3);
    EXPECT_EQ(lessonTiledStages({64, 64, 64, 64}, DType::Tf32, kH200SharedOptIn, 8, 0), 3);
    // Four where steps are short and BLOCK_I at most 64: bfloat16 on either kernel, TF32 on the
    // wgmma kernel from BLOCK_N 32.
    EXPECT_EQ(lessonTiledStages({64, 64, 32, 32}, DType::Bfloat16, kH200SharedOptIn, 9, 0), 4);
    EXPECT_EQ(lessonTiledStages({16, 64, 32, 64}, DType::Bfloat16, kH200SharedOptIn, 9, 0), 4);
    EXPECT_EQ(lessonTiledStages({64, 64, 32, 32}, DType::Tf32, kH200SharedOptIn, 9, 0), 4);
    EXPECT_EQ(lessonTiledStages({64, 16, 32, 32}, DType::Tf32, kH200SharedOptIn, 9, 0), 3);
    EXPECT_EQ(lessonTiledStages({16, 64, 32, 32}, DType::Tf32, kH200SharedOptIn, 9, 0), 3);
    EXPECT_EQ(lessonTiledStages({64, 64, 32, 128}, DType::Bfloat16, kH200SharedOptIn, 9, 0), 3);
    EXPECT_EQ(lessonTiledStages({64, 64, 64, 32}, DType::Bfloat16, kH200SharedOptIn, 9, 0), 3);
}

// The __launch_bounds__ minimum: the blocks the shared memory lets share a multiprocessor, at most
// as many as leave 128 registers a thread and as the grid has for each multiprocessor; on the
// wgmma kernel only where that bounds the registers at 128 with room for the accumulators.
TEST(LessonWarps, MinimumBlocksFollowSharedMemoryRegistersAndTheGrid) {
    // On the H200 (compute capability 9), where the grid has `grid` blocks an SM.
    const auto onH200 = [](const LessonTiles& tiles, DType dtype, int stages, std::uint64_t grid) {
        return lessonTiledMinBlocks(tiles, dtype, stages, kH200SharedOptIn, 9, grid);
    };
    // mma.sync, 16/32/128/128: 216 KiB, so one block an SM whatever the grid.
    EXPECT_EQ(onH200({16, 32, 128, 128}, DType::Bfloat16, 3, 8), 1);
    // 16/16/32/32: nine share an SM by shared memory; four keep 128 registers a thread; the grid
    // may have fewer.
    EXPECT_EQ(onH200({16, 16, 32, 32}, DType::Bfloat16, 4, 16), 4);
    EXPECT_EQ(onH200({16, 16, 32, 32}, DType::Bfloat16, 4, 3), 3);
    EXPECT_EQ(onH200({16, 16, 32, 32}, DType::Bfloat16, 4, 0), 4);
    // wgmma, 64/128/64/64: 89 KiB. Where the grid has a block for each SM (classroom: 64) eight
    // warps and no bound; at prefill-512's 256 blocks four warps, whose two blocks an SM leave
    // 256 registers a thread: no bound needed.
    EXPECT_EQ(onH200({64, 128, 64, 64}, DType::Bfloat16, 3, 1), 0);
    EXPECT_EQ(onH200({64, 128, 64, 64}, DType::Bfloat16, 3, 2), 0);
    // wgmma, eight warps at 128/64/64/64: 96 accumulators a thread, two blocks at prefill-512.
    EXPECT_EQ(onH200({128, 64, 64, 64}, DType::Bfloat16, 3, 2), 2);
    // wgmma, 128/16/32/128: 136 accumulators a thread do not fit under 128 registers, and one
    // block bounds nothing.
    EXPECT_EQ(onH200({128, 16, 32, 128}, DType::Bfloat16, 3, 2), 0);
    // wgmma, four warps at 64/64/64/64: two blocks leave 256 registers, no bound needed.
    EXPECT_EQ(onH200({64, 64, 64, 64}, DType::Bfloat16, 3, 2), 0);
    // Any kernel: the bound leaves a thread's accumulators 32 registers. float32's
    // CUDA-core kernel at 128/128/16/16 holds 160: four blocks (128 registers) spilled 1,264 bytes
    // under ptxas, two (256) none.
    EXPECT_EQ(onH200({128, 128, 16, 16}, DType::Float32, 1, 0), 2);
    // The request carries a minimum, and none where there is none.
    EXPECT_TRUE(
        hasOption(lessonRequest({16, 16, 32, 32}, DType::Bfloat16, 4, 3, 9), "-DFS_MIN_BLOCKS=3"));
    for (const std::string& option :
         lessonRequest({64, 64, 64, 64}, DType::Bfloat16, 3, 0, 9).options)
        EXPECT_EQ(option.rfind("-DFS_MIN_BLOCKS", 0), std::string::npos) << option;
}

// A grid of at most one block a multiprocessor takes four stages where they fit.
TEST(LessonWarps, OneBlockAMultiprocessorTakesFourStages) {
    // decode-1 16/32/64/128: three stages (110 KiB, two blocks an SM) where the grid has blocks
    // for a second block an SM...
    EXPECT_EQ(lessonTiledStages({16, 32, 64, 128}, DType::Bfloat16, kH200SharedOptIn, 9, 2), 3);
    // ...four where it has one block for each SM (128 blocks on 132).
    EXPECT_EQ(lessonTiledStages({16, 32, 64, 128}, DType::Bfloat16, kH200SharedOptIn, 9, 1), 4);
    // 16/32/128/128: four stages need 280 KiB, three fit.
    EXPECT_EQ(lessonTiledStages({16, 32, 128, 128}, DType::Bfloat16, kH200SharedOptIn, 9, 1), 3);
    // The wgmma kernel takes a fifth, spare slot where it fits: TF32 64/128/64/32 (177 KiB with
    // five), the classroom's 64/64/32/128 in bfloat16 (117 KiB); 64/128/64/128 fits four (193
    // KiB; five need 233).
    EXPECT_EQ(lessonTiledStages({64, 128, 64, 32}, DType::Tf32, kH200SharedOptIn, 9, 1), 5);
    EXPECT_EQ(lessonTiledStages({64, 64, 32, 128}, DType::Bfloat16, kH200SharedOptIn, 9, 1), 5);
    EXPECT_EQ(lessonTiledStages({64, 128, 64, 128}, DType::Bfloat16, kH200SharedOptIn, 9, 1), 4);
    // Not off Hopper, where the same tiles run mma.sync.
    EXPECT_EQ(lessonTiledStages({64, 64, 32, 128}, DType::Bfloat16, kH200SharedOptIn, 8, 1), 4);
}

// The plan is decided once and compiled as it is: the copies run stages - 1 ahead, at most three
// on the wgmma kernel, whose fifth slot is spare (one barrier a step).
TEST(LessonWarps, ThePlanIsWhatTheRequestCompiles) {
    struct Case {
        LessonTiles tiles;
        std::uint64_t m, h;  // the shape's rows and columns, which decide the grid
        int stages, copiesAhead, threads, minBlocks;
    };
    const Case cases[] = {
        // Classroom 64/64/32/128: 128 blocks, one an SM; two warpgroups, a spare fifth slot.
        {{64, 64, 32, 128}, 512, 1024, 5, 3, 256, 0},
        // Prefill-512 64/128/64/64: two blocks an SM, one warpgroup, three slots.
        {{64, 128, 64, 64}, 512, 4096, 3, 2, 128, 0},
        // mma.sync (decode-1's one block an SM): four slots, three ahead, bounded for one block.
        {{16, 32, 64, 128}, 1, 4096, 4, 3, 128, 1}};
    for (const Case& c : cases) {
        SCOPED_TRACE(lessonTilesText(c.tiles));
        const LessonTiledPlan plan =
            lessonTiledPlan(c.tiles, DType::Bfloat16, 9, kH200SharedOptIn,
                            lessonTiledBlocksPerMultiprocessor(c.tiles, c.m, c.h, 132));
        EXPECT_EQ(plan.stages, c.stages);
        EXPECT_EQ(plan.copiesAhead, c.copiesAhead);
        EXPECT_EQ(plan.threads, c.threads);
        EXPECT_EQ(plan.minBlocks, c.minBlocks);
        const CompileRequest request =
            lessonTiledCompileRequest(c.tiles, DType::Bfloat16, plan, 9, 0);
        EXPECT_TRUE(hasOption(request, "-DFS_STAGES=" + std::to_string(c.stages)));
        EXPECT_TRUE(hasOption(request, "-DFS_AHEAD=" + std::to_string(c.copiesAhead)));
        EXPECT_TRUE(hasOption(request, "-DFS_WARPS=" + std::to_string(c.threads / 32)));
    }
    // stages - 1 ahead on mma.sync; on the wgmma kernel at most three.
    EXPECT_EQ(lessonTiledCopiesAhead({16, 32, 64, 128}, DType::Bfloat16, 6, 9), 5);
    EXPECT_EQ(lessonTiledCopiesAhead({64, 64, 32, 128}, DType::Bfloat16, 6, 9), 3);
    EXPECT_EQ(lessonTiledCopiesAhead({64, 64, 32, 128}, DType::Bfloat16, 2, 9), 1);
}

// The mma.sync kernel's hidden tile lives in a ring slot; the shared memory that saves goes to a
// third stage or a second block an SM, never to a third or later block, which the launch keeps
// off by asking the hidden tile's bytes as well (classroom shape, 132 SMs).
TEST(LessonWarps, TheHiddenTilesSlotBuysStagesOrASecondBlockNotAThird) {
    const auto planAt = [](const LessonTiles& tiles, DType dtype) {
        return lessonTiledPlan(tiles, dtype, 9, kH200SharedOptIn,
                               lessonTiledBlocksPerMultiprocessor(tiles, 512, 1024, 132));
    };
    const auto blocksAnSm = [](std::uint64_t bytes) {
        return (kH200SharedOptIn + 1024) / (bytes + 1024);
    };
    // TF32 32/64/32/128: two stages (104 KiB) let a second block share the SM, as Triton's
    // kernel runs; with a hidden tile of its own (120 KiB) only one fit.
    const LessonTiles second{32, 64, 32, 128};
    EXPECT_TRUE(lessonTiledHiddenInSlot(second));
    const LessonTiledPlan secondPlan = planAt(second, DType::Tf32);
    EXPECT_EQ(secondPlan.stages, 2);
    EXPECT_EQ(secondPlan.sharedBytes, lessonTiledSharedBytes(second, DType::Tf32, 2, 9));
    EXPECT_EQ(blocksAnSm(secondPlan.sharedBytes), 2u);
    // bfloat16 16/32/64/128: a third stage, two blocks an SM still (110 KiB).
    const LessonTiles third{16, 32, 64, 128};
    const LessonTiledPlan thirdPlan = planAt(third, DType::Bfloat16);
    EXPECT_EQ(thirdPlan.stages, 3);
    EXPECT_EQ(thirdPlan.sharedBytes, lessonTiledSharedBytes(third, DType::Bfloat16, 3, 9));
    EXPECT_EQ(blocksAnSm(thirdPlan.sharedBytes), 2u);
    // bfloat16 16/16/64/64: the slot would let a fourth block in (56 KiB); the launch asks the
    // hidden tile's 2 KiB too and keeps three.
    const LessonTiles crowded{16, 16, 64, 64};
    const LessonTiledPlan crowdedPlan = planAt(crowded, DType::Bfloat16);
    EXPECT_EQ(crowdedPlan.stages, 3);
    const std::uint64_t used = lessonTiledSharedBytes(crowded, DType::Bfloat16, 3, 9);
    EXPECT_EQ(blocksAnSm(used), 4u);
    EXPECT_EQ(crowdedPlan.sharedBytes, used + 16 * 64 * 2);
    EXPECT_EQ(blocksAnSm(crowdedPlan.sharedBytes), 3u);
    // The launch bound follows the blocks that share an SM.
    EXPECT_EQ(crowdedPlan.minBlocks, 3);
}

// The mma.sync kernel's copies refill a step's own slot, a whole step further ahead, where a TF32
// block has its multiprocessor to itself (after the step's products) and in bfloat16 at BLOCK_H 32
// and BLOCK_I 128 (after the step's reads); elsewhere the previous step's slot (classroom shape,
// 132 SMs).
TEST(LessonRefill, OwnSlotWhereATf32BlockIsAloneOrABfloat16StepIsShort) {
    const auto planAt = [](const LessonTiles& tiles, DType dtype) {
        return lessonTiledPlan(tiles, dtype, 9, kH200SharedOptIn,
                               lessonTiledBlocksPerMultiprocessor(tiles, 512, 1024, 132));
    };
    // TF32 16/64/64/128: two stages of 68 KiB and down's 32 KiB leave room for one block. The
    // hidden tile (16 x 128 floats) has shared memory of its own, since the slot it would take is
    // refilled at once.
    const LessonTiles alone{16, 64, 64, 128};
    const LessonTiledPlan alonePlan = planAt(alone, DType::Tf32);
    EXPECT_EQ(alonePlan.refill, LessonRefill::OwnSlotAfterProducts);
    EXPECT_EQ(alonePlan.stages, 2);
    EXPECT_EQ(alonePlan.copiesAhead, 2);
    EXPECT_FALSE(lessonTiledHiddenInSlot(alone, alonePlan.refill));
    EXPECT_EQ(alonePlan.sharedBytes, (2u * (16 * 64 + 2 * 128 * 64) + 64 * 128 + 16 * 128) * 4);
    EXPECT_EQ(alonePlan.sharedBytes,
              lessonTiledSharedBytes(alone, DType::Tf32, 2, 9, alonePlan.refill));
    const CompileRequest aloneRequest =
        lessonTiledCompileRequest(alone, DType::Tf32, alonePlan, 9, 0);
    EXPECT_TRUE(hasOption(aloneRequest, "-DFS_REFILL=2"));
    EXPECT_TRUE(hasOption(aloneRequest, "-DFS_HIDDEN_IN_SLOT=0"));
    EXPECT_TRUE(hasOption(aloneRequest, "-DFS_AHEAD=2"));
    // TF32 16/32/64/128: three stages fit only with the hidden tile in a slot; beside its own,
    // two.
    const LessonTiles deep{16, 32, 64, 128};
    EXPECT_EQ(lessonTiledSharedBytes(deep, DType::Tf32, 3, 9), 225280u);
    const LessonTiledPlan deepPlan = planAt(deep, DType::Tf32);
    EXPECT_EQ(deepPlan.refill, LessonRefill::OwnSlotAfterProducts);
    EXPECT_EQ(deepPlan.stages, 2);
    EXPECT_LE(deepPlan.sharedBytes, kH200SharedOptIn);
    // bfloat16 32/32/32/128: held fragments, three stages all ahead, three blocks an SM still.
    const LessonTiles shortSteps{32, 32, 32, 128};
    const LessonTiledPlan shortPlan = planAt(shortSteps, DType::Bfloat16);
    EXPECT_EQ(shortPlan.refill, LessonRefill::OwnSlotAfterReads);
    EXPECT_EQ(shortPlan.stages, 3);
    EXPECT_EQ(shortPlan.copiesAhead, 3);
    EXPECT_EQ(shortPlan.minBlocks, 3);
    EXPECT_TRUE(hasOption(lessonTiledCompileRequest(shortSteps, DType::Bfloat16, shortPlan, 9, 0),
                          "-DFS_REFILL=1"));
    // Elsewhere the previous slot: TF32 blocks two to an SM, bfloat16 at BLOCK_H 64, the wgmma
    // kernel, float32.
    for (const auto& [tiles, dtype] : {std::pair{LessonTiles{16, 64, 32, 128}, DType::Tf32},
                                       std::pair{LessonTiles{32, 64, 64, 64}, DType::Bfloat16},
                                       std::pair{LessonTiles{64, 64, 32, 128}, DType::Bfloat16},
                                       std::pair{LessonTiles{64, 64, 64, 128}, DType::Tf32},
                                       std::pair{LessonTiles{16, 64, 64, 128}, DType::Float32}}) {
        SCOPED_TRACE(lessonTilesText(tiles));
        const LessonTiledPlan plan = planAt(tiles, dtype);
        EXPECT_EQ(plan.refill, LessonRefill::PreviousSlot);
        EXPECT_TRUE(
            hasOption(lessonTiledCompileRequest(tiles, dtype, plan, 9, 0), "-DFS_REFILL=0"));
    }
}

// Both own-slot refills compile, with the narrow x path (BLOCK_M 16) and without, in both element
// types.
TEST(LessonRefill, NvrtcCompilesEveryRefill) {
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    if (!nvrtc) GTEST_SKIP() << nvrtc.status().message();
    const std::pair<LessonTiles, DType> cases[] = {{{16, 64, 64, 128}, DType::Tf32},
                                                   {{32, 32, 64, 128}, DType::Tf32},
                                                   {{16, 64, 32, 128}, DType::Bfloat16},
                                                   {{32, 32, 32, 128}, DType::Bfloat16},
                                                   {{16, 16, 64, 128}, DType::Tf32}};
    for (const auto& [tiles, dtype] : cases) {
        SCOPED_TRACE(lessonTilesText(tiles));
        for (LessonRefill refill :
             {LessonRefill::OwnSlotAfterReads, LessonRefill::OwnSlotAfterProducts}) {
            LessonTiledPlan plan = lessonTiledPlan(tiles, dtype, 9, kH200SharedOptIn, 0);
            plan.refill = refill;
            plan.copiesAhead = lessonTiledCopiesAhead(tiles, dtype, plan.stages, 9, refill);
            EXPECT_EQ(plan.copiesAhead, plan.stages);
            expectCompiles(**nvrtc, lessonTiledCompileRequest(tiles, dtype, plan, 9, 0));
        }
    }
}

// Every width of K (16 to 128: rows of 32 to 256 bytes in bfloat16, 64 to 512 in TF32, the 32-,
// 64- and 128-byte swizzles and rows of two or four atoms) and of N (16 to 128) the wgmma kernel
// multiplies, at both BLOCK_M, with one and two warpgroups per 64 rows, in both element types.
TEST(LessonWarps, NvrtcCompilesTheWarpgroupKernels) {
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    if (!nvrtc) GTEST_SKIP() << nvrtc.status().message();
    const LessonTiles cases[] = {{64, 64, 64, 64},  {128, 128, 128, 128}, {64, 16, 16, 32},
                                 {128, 32, 32, 16}, {64, 128, 32, 128},   {64, 128, 128, 64},
                                 {128, 128, 32, 32}};
    for (const LessonTiles& tiles : cases) {
        SCOPED_TRACE(lessonTilesText(tiles));
        for (const DType dtype : {DType::Bfloat16, DType::Tf32}) {
            SCOPED_TRACE(dtype == DType::Tf32 ? "tf32" : "bf16");
            const CompileRequest request = lessonRequest(tiles, dtype, 2, 1, 9);
            ASSERT_TRUE(hasOption(request, "-DFS_WGMMA=1"));
            expectCompiles(**nvrtc, request);
        }
    }
    // With a spare slot (five stages, three ahead): one barrier a step.
    for (const DType dtype : {DType::Bfloat16, DType::Tf32}) {
        const CompileRequest request = lessonRequest({64, 64, 32, 128}, dtype, 5, 0, 9);
        ASSERT_TRUE(hasOption(request, "-DFS_AHEAD=3"));
        expectCompiles(**nvrtc, request);
    }
}

}  // namespace
}  // namespace fusescope::mlp
