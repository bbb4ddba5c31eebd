#include "pipelines/mlp/mlp_lesson_tiled.h"

#include <algorithm>
#include <atomic>

#include "pipelines/mlp/embedded_source.h"
#include "pipelines/mlp/mlp_lesson_tiled_source.h"

namespace fusescope::mlp {
namespace {

std::atomic<bool> alwaysCompiled{false};

}  // namespace

std::string_view lessonTiledSource() {
    static const std::string text = joinedSource(kLessonTiledSourceParts);
    return text;
}

bool lessonTiledWarpgroups(const LessonTiles& tiles, DType dtype, int computeMajor) {
    return (dtype == DType::Bfloat16 || dtype == DType::Tf32) && computeMajor == 9 &&
           tiles.blockM % 64 == 0;
}

bool lessonTiledHiddenInSlot(const LessonTiles& tiles, LessonRefill refill) {
    return refill == LessonRefill::PreviousSlot &&
           tiles.blockM * tiles.blockI <=
               tiles.blockM * tiles.blockH + 2 * tiles.blockI * tiles.blockH;
}

namespace {

// The mma.sync kernel's BLOCK_M x BLOCK_I hidden tile, in the element's width (TF32: float32).
std::uint64_t hiddenTileBytes(const LessonTiles& tiles, DType dtype) {
    return static_cast<std::uint64_t>(tiles.blockM) * static_cast<std::uint64_t>(tiles.blockI) *
           (dtype == DType::Bfloat16 ? 2 : 4);
}

}  // namespace

std::uint64_t lessonTiledSharedBytes(const LessonTiles& tiles, DType dtype, int stages,
                                     int computeMajor, LessonRefill refill) {
    const auto m = static_cast<std::uint64_t>(tiles.blockM),
               n = static_cast<std::uint64_t>(tiles.blockN),
               h = static_cast<std::uint64_t>(tiles.blockH),
               i = static_cast<std::uint64_t>(tiles.blockI);
    const bool warpgroups = lessonTiledWarpgroups(tiles, dtype, computeMajor);
    if (dtype == DType::Bfloat16 || dtype == DType::Tf32) {
        // Unpadded swizzled tiles of x, gate and up a stage, and down's. The wgmma kernel keeps
        // the hidden tile in registers, and aligns its layout to the 1 KiB its swizzled tiles
        // start on in 1 KiB more; the mma.sync kernel stages the hidden tile in the element's
        // width (TF32: float32), in the slot its chunk's last step has just freed where it fits
        // there (lessonTiledHiddenInSlot).
        const std::uint64_t bytes = dtype == DType::Bfloat16 ? 2 : 4;
        const std::uint64_t staged =
            static_cast<std::uint64_t>(stages) * (m * h + 2 * i * h) * bytes + n * i * bytes;
        if (warpgroups) return staged + 1024;
        return staged +
               (lessonTiledHiddenInSlot(tiles, refill) ? 0 : hiddenTileBytes(tiles, dtype));
    }
    return (m * (h + 1) + 2 * i * (h + 1) + n * (i + 1) + m * (i + 1)) * 4;
}

namespace {

// Blocks of `bytes` and `threads` that share one multiprocessor, where a block may use
// `sharedLimit`: the multiprocessor holds that plus the 1 KiB the driver reserves per block, and
// 2048 threads (Ampere and Hopper).
std::uint64_t blocksSharing(std::uint64_t bytes, std::uint64_t sharedLimit, int threads) {
    constexpr std::uint64_t kReserved = 1024, kThreadsPerMultiprocessor = 2048;
    if (bytes > sharedLimit) return 0;
    return std::min((sharedLimit + kReserved) / (bytes + kReserved),
                    kThreadsPerMultiprocessor / static_cast<std::uint64_t>(threads));
}

// The shared memory a launch of these tiles with `stages` asks for: the kernel's, or, where the
// hidden tile in a ring slot would only let a third or later block share an SM, the bytes a hidden
// tile of its own takes, which keep those blocks out. On an H100 (one call, the same kernel at
// both sizes, the classroom shape) such extra blocks were never faster: bfloat16 16/16/64/64 took
// 1.08 times its time with three blocks, TF32 16/32/64/32 1.21 times with four, and 12 other cells
// 0.99 to 1.10 times; a second block (TF32 32/64/32/128: 0.698 ms against 0.899 with one) or a
// third stage (bfloat16 16/32/64/128: 0.899 ms against 1.067 with two) won.
std::uint64_t launchSharedBytes(const LessonTiles& tiles, DType dtype, int stages,
                                std::uint64_t sharedLimit, int computeMajor, int threads) {
    const std::uint64_t used = lessonTiledSharedBytes(tiles, dtype, stages, computeMajor);
    if (lessonTiledWarpgroups(tiles, dtype, computeMajor) || dtype == DType::Float32 ||
        !lessonTiledHiddenInSlot(tiles))
        return used;
    const std::uint64_t apart = used + hiddenTileBytes(tiles, dtype);
    const std::uint64_t blocksApart = blocksSharing(apart, sharedLimit, threads);
    return blocksApart >= 2 && blocksSharing(used, sharedLimit, threads) > blocksApart ? apart
                                                                                       : used;
}

// The blocks of these tiles with `stages` copy stages that share one multiprocessor.
std::uint64_t blocksWithStages(const LessonTiles& tiles, DType dtype, int stages,
                               std::uint64_t sharedLimit, int computeMajor,
                               std::uint64_t gridBlocksPerMultiprocessor) {
    const int threads =
        lessonTiledThreads(tiles, dtype, computeMajor, sharedLimit, gridBlocksPerMultiprocessor);
    return blocksSharing(
        launchSharedBytes(tiles, dtype, stages, sharedLimit, computeMajor, threads), sharedLimit,
        threads);
}

// A thread's accumulators (g, u and the output tile) where a block has `threads`.
int accumulatorsPerThread(const LessonTiles& tiles, int threads) {
    return tiles.blockM * (2 * tiles.blockI + tiles.blockN) / threads;
}

}  // namespace

std::uint64_t lessonTiledBlocksPerMultiprocessor(const LessonTiles& tiles, std::uint64_t m,
                                                 std::uint64_t h, int multiprocessors) {
    if (multiprocessors <= 0 || tiles.blockM <= 0 || tiles.blockN <= 0) return 0;
    const auto up = [](std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; };
    const std::uint64_t blocks = up(m, static_cast<std::uint64_t>(tiles.blockM)) *
                                 up(h, static_cast<std::uint64_t>(tiles.blockN));
    return up(blocks, static_cast<std::uint64_t>(multiprocessors));
}

int lessonTiledStages(const LessonTiles& tiles, DType dtype, std::uint64_t sharedLimit,
                      int computeMajor, std::uint64_t gridBlocksPerMultiprocessor) {
    if (dtype == DType::Float32) return 1;
    const std::uint64_t grid = gridBlocksPerMultiprocessor;
    const int threads = lessonTiledThreads(tiles, dtype, computeMajor, sharedLimit, grid);
    const bool warpgroups = lessonTiledWarpgroups(tiles, dtype, computeMajor);
    const std::uint64_t two = blocksWithStages(tiles, dtype, 2, sharedLimit, computeMajor, grid),
                        three = blocksWithStages(tiles, dtype, 3, sharedLimit, computeMajor, grid),
                        four = blocksWithStages(tiles, dtype, 4, sharedLimit, computeMajor, grid);
    // Two stages only to escape one block a multiprocessor, and only for four-warp blocks: two
    // eight-warp blocks would need more registers than a multiprocessor has at most tiles. The
    // wgmma kernel keeps its third stage from BLOCK_N 64 on, alone on its SM: on the H200,
    // bfloat16 64/64/128/64 took 0.327 ms with three stages against 0.425 ms with two (TF32
    // 64/64/64/64 0.621 against 1.065), while 64/16/128/64 and 64/32/128/64 took 1.044 and 0.535
    // ms with two against 1.226 and 0.636 with three.
    if (three == 0) return 2;
    // Where the grid has at most one block for each multiprocessor, a block can have its SM's
    // shared memory to itself: four stages where they fit. On the H200 (one call, every cell
    // against three stages or the two the rules below chose): decode-1 16/32/64/128 took 3.74 ms
    // against 6.02 with two, 16/64/128/64 4.27 against 6.25; prefill-512 128/128/64/32 10.9
    // against 13.7 with three; classroom TF32 64/128/64/32 0.634 against 0.735; no cell was more
    // than 2% slower. Six stages gained nothing over four.
    // On the wgmma kernel a fifth slot where it fits, spare (lessonTiledCopiesAhead): one barrier a
    // step instead of two. On the H200 (one call) the 28 classroom bfloat16 cells this gives five
    // took 0.915 to 1.006 times their time with four (median 0.957; 64/64/32/128 0.282 ms against
    // 0.302), the 12 TF32 ones 0.929 to 1.000, prefill-512 128/128/64/32 and 64 0.952 and 0.990.
    // One barrier with one step fewer ahead instead (no spare slot) was up to 1.6 times slower
    // where three stages left one step ahead.
    if (gridBlocksPerMultiprocessor == 1) {
        const std::uint64_t five =
            blocksWithStages(tiles, dtype, 5, sharedLimit, computeMajor, grid);
        if (warpgroups && five > 0) return 5;
        return four > 0 ? 4 : 3;
    }
    const bool keepThird = warpgroups && tiles.blockN >= 64;
    if (threads == 128 && three == 1 && two >= 2 && !keepThird) return 2;
    // TF32 on mma.sync: two stages wherever the grid has more blocks a multiprocessor than three
    // let share one and two let more share it. On the H200 at the classroom shape, BLOCK_M 16:
    // 16/64/64/32 took 1.32 ms with two (4 blocks an SM) against 1.93 with three (3), 16/16/32/64
    // 4.14 against 4.81; where the grid cannot fill the blocks two stages add, the third stage
    // wins (16/128/32/32, 256 blocks: 0.948 ms with three against 1.86 with two).
    const bool wantsBlocks = gridBlocksPerMultiprocessor > 0 && three < gridBlocksPerMultiprocessor;
    if (dtype == DType::Tf32 && !warpgroups && threads == 128 && two > three && wantsBlocks)
        return 2;
    // A fourth stage where steps are short (BLOCK_H 32) and BLOCK_I is at most 64, where it fits:
    // on the H200 it was never slower in bfloat16 (64/64/32/32: 0.520 ms against 0.608 with
    // three), nor in TF32 on the wgmma kernel from BLOCK_N 32 (64/64/32/32: 0.858 against 1.155);
    // on TF32's mma.sync kernel, and at TF32 64/16/32/32, it was up to 1.9 times slower.
    const bool fourth = dtype == DType::Bfloat16 || (warpgroups && tiles.blockN >= 32);
    if (fourth && tiles.blockH == 32 && tiles.blockI <= 64 && four > 0) return 4;
    return 3;
}

int lessonTiledMinBlocks(const LessonTiles& tiles, DType dtype, int stages,
                         std::uint64_t sharedLimit, int computeMajor,
                         std::uint64_t gridBlocksPerMultiprocessor) {
    constexpr std::uint64_t kRegistersPerMultiprocessor = 65536, kRegistersKept = 128;
    const int threads =
        lessonTiledThreads(tiles, dtype, computeMajor, sharedLimit, gridBlocksPerMultiprocessor);
    const auto perThread = static_cast<std::uint64_t>(threads);
    const std::uint64_t sharing = blocksWithStages(tiles, dtype, stages, sharedLimit, computeMajor,
                                                   gridBlocksPerMultiprocessor);
    std::uint64_t blocks =
        std::min(sharing, kRegistersPerMultiprocessor / (perThread * kRegistersKept));
    if (gridBlocksPerMultiprocessor > 0) blocks = std::min(blocks, gridBlocksPerMultiprocessor);
    blocks = std::max<std::uint64_t>(1, blocks);
    // A bound must leave a thread's accumulators (g, u and the output tile) 32 registers of room:
    // on the wgmma kernel at 128/16/32/128 (136 accumulators, 197 registers unbound) a bound of
    // 128 spilled and took 5.43 ms against 0.679. Fewer blocks, then, down to one. (At 96
    // accumulators, 128/64/64/64, ptxas serializes the wgmma under a bound of 128 registers, and
    // yet at prefill-512 two such blocks an SM took 13.4-14.8 ms against 16.1 with one unbound.)
    const auto accumulators = static_cast<std::uint64_t>(accumulatorsPerThread(tiles, threads));
    const auto boundFor = [&](std::uint64_t b) {
        return kRegistersPerMultiprocessor / (perThread * b);
    };
    while (blocks > 1 && accumulators + 32 > boundFor(blocks)) --blocks;
    if (!lessonTiledWarpgroups(tiles, dtype, computeMajor)) return static_cast<int>(blocks);
    // The wgmma kernel only where the bound is tight enough to decide whether another block fits
    // (128 registers a thread or fewer) and leaves that room. Elsewhere a bound changed its time
    // by -4% to +13%.
    const std::uint64_t bound = boundFor(blocks);
    return bound <= kRegistersKept && accumulators + 32 <= bound ? static_cast<int>(blocks) : 0;
}

int lessonTiledThreads(const LessonTiles& tiles, DType dtype, int computeMajor,
                       std::uint64_t sharedLimit, std::uint64_t gridBlocksPerMultiprocessor) {
    if (dtype == DType::Float32) return 128;
    // A warpgroup of four warps per 64 rows of the M tile; at BLOCK_M 64 two, splitting the
    // columns of g and u, where one would hold 128 or more accumulators a thread (g, u and the
    // output): on the H200 64/64/64/128 took 0.266 ms against 0.365 ms with one warpgroup,
    // 64/64/32/128 0.317 against 0.335 ms. But one where the grid has blocks for two or more a
    // multiprocessor and two blocks of one warpgroup fit its shared memory (with two stages): two
    // such blocks keep up to 255 registers a thread, as the lesson's Triton kernel does, where two
    // of two warpgroups are bounded at 128 (lessonTiledMinBlocks) and ptxas serializes their wgmma.
    // On the H200 (one call, each build twice): prefill-512 64/128/64/64 8.49 ms against 10.9,
    // classroom bfloat16 64/32/64/128 0.378 against 0.475, 64/16/64/128 0.748 against 0.930,
    // TF32 64/16/32/128 1.65 against 1.77; where only one block fits, 64/16/128/128 took 1.23
    // with one warpgroup against 1.10 with two.
    if (lessonTiledWarpgroups(tiles, dtype, computeMajor)) {
        const bool wide = tiles.blockM == 64 && tiles.blockI + tiles.blockN / 2 >= 128;
        const bool blocksShare =
            gridBlocksPerMultiprocessor >= 2 &&
            blocksSharing(lessonTiledSharedBytes(tiles, dtype, 2, computeMajor), sharedLimit,
                          128) >= 2;
        return wide && !blocksShare ? 256 : tiles.blockM / 64 * 128;
    }
    // Accumulators (g, u and the output tile) per thread with four warps. TF32 on mma.sync with
    // eight warps from BLOCK_M 64 (off Hopper); at BLOCK_M 32 four were faster at 25 of 29
    // classroom cells on the H200 (32/64/64/64: 0.88 against 1.24 ms), as its unpadded tiles
    // let two blocks share a multiprocessor.
    const int accumulators = accumulatorsPerThread(tiles, 128);
    // bfloat16 on the H200 (mma.sync there only below BLOCK_M 64) ran faster with four warps
    // wherever it was measured, once the kernel's registers follow the blocks that share an SM
    // (lessonTiledMinBlocks): 32/32/64/128 0.736 ms against 0.917 with eight, 32/16/64/128 1.49
    // against 1.91; the rule of eight stays for the other GPUs, where it was not re-measured.
    const bool eight =
        dtype == DType::Tf32 ? tiles.blockM >= 64 : computeMajor != 9 && accumulators >= 64;
    return eight ? 256 : 128;
}

LessonRefill lessonTiledRefill(const LessonTiles& tiles, DType dtype, int computeMajor,
                               std::uint64_t blocksAnSm) {
    if (dtype == DType::Float32 || lessonTiledWarpgroups(tiles, dtype, computeMajor))
        return LessonRefill::PreviousSlot;
    // On an H100 (two calls, the classroom shape, BLOCK_M 16 and 32, each cell's plan with each
    // refill): a bfloat16 step at BLOCK_H 32 is two k steps, its fragments a few registers; held,
    // the copies gain a whole step. At BLOCK_I 128, 16/64/32/128 took 0.75 times its time,
    // 32/32/32/128 0.88 (1.11 times Triton's to 0.97), 32/16/32/128 0.93, and none of the eight
    // more than 1.05; at BLOCK_I 32 and 64 the median was 1.02.
    if (dtype == DType::Bfloat16 && tiles.blockH == 32 && tiles.blockI == 128)
        return LessonRefill::OwnSlotAfterReads;
    // Where a TF32 block has a multiprocessor to itself, nothing else hides a copy that waits for
    // the step before it: the own slot after the products. The 20 such cells took a median of
    // 0.97 times their time (16/64/64/128 0.86, from 1.21 times Triton's to 1.03; 16/128/32/128
    // 0.90, from 1.12 to 1.01; 32/32/128/64 1.07 the most); bfloat16 ones 1.00, decode-1's 0.94 to
    // 0.99 (left as they are). Held fragments did more at decode (0.82 at 16/64/64/128), which
    // would make the kernel's best tile one where Triton takes 1.46 times its own best.
    if (dtype == DType::Tf32 && blocksAnSm == 1) return LessonRefill::OwnSlotAfterProducts;
    return LessonRefill::PreviousSlot;
}

int lessonTiledCopiesAhead(const LessonTiles& tiles, DType dtype, int stages, int computeMajor,
                           LessonRefill refill) {
    constexpr int kWarpgroupAhead = 3;
    if (lessonTiledWarpgroups(tiles, dtype, computeMajor))
        return std::min(stages - 1, kWarpgroupAhead);
    return refill == LessonRefill::PreviousSlot ? stages - 1 : stages;
}

LessonTiledPlan lessonTiledPlan(const LessonTiles& tiles, DType dtype, int computeMajor,
                                std::uint64_t sharedLimit,
                                std::uint64_t gridBlocksPerMultiprocessor) {
    LessonTiledPlan plan;
    plan.stages =
        lessonTiledStages(tiles, dtype, sharedLimit, computeMajor, gridBlocksPerMultiprocessor);
    plan.copiesAhead = lessonTiledCopiesAhead(tiles, dtype, plan.stages, computeMajor);
    plan.minBlocks = lessonTiledMinBlocks(tiles, dtype, plan.stages, sharedLimit, computeMajor,
                                          gridBlocksPerMultiprocessor);
    plan.threads =
        lessonTiledThreads(tiles, dtype, computeMajor, sharedLimit, gridBlocksPerMultiprocessor);
    plan.sharedBytes =
        launchSharedBytes(tiles, dtype, plan.stages, sharedLimit, computeMajor, plan.threads);
    const LessonRefill refill = lessonTiledRefill(
        tiles, dtype, computeMajor, blocksSharing(plan.sharedBytes, sharedLimit, plan.threads));
    if (refill == LessonRefill::PreviousSlot) return plan;
    // A refilled own slot cannot take the chunk's hidden tile: the tile gets shared memory of its
    // own, and a stage fewer where the stages would not fit beside it (at least two).
    LessonTiledPlan own = plan;
    own.refill = refill;
    while (own.stages > 2 &&
           lessonTiledSharedBytes(tiles, dtype, own.stages, computeMajor, refill) > sharedLimit)
        --own.stages;
    own.sharedBytes = lessonTiledSharedBytes(tiles, dtype, own.stages, computeMajor, refill);
    if (own.sharedBytes > sharedLimit) return plan;
    own.copiesAhead = lessonTiledCopiesAhead(tiles, dtype, own.stages, computeMajor, refill);
    const auto sharing = static_cast<int>(blocksSharing(own.sharedBytes, sharedLimit, own.threads));
    own.minBlocks = std::min(own.minBlocks, sharing);
    return own;
}

std::vector<LessonTiledPlan> lessonTiledBuilds(const LessonTiledPlan& plan) {
    LessonTiledPlan other = plan;
    other.minBlocks = plan.minBlocks > 0 ? 0 : 1;
    return {plan, other};
}

std::string lessonTiledBoundText(const LessonTiledPlan& plan) {
    if (plan.minBlocks <= 0) return "no register bound";
    return "registers for " + std::to_string(plan.minBlocks) +
           (plan.minBlocks == 1 ? " block an SM" : " blocks an SM");
}

CompileRequest lessonTiledCompileRequest(const LessonTiles& tiles, DType dtype,
                                         const LessonTiledPlan& plan, int computeMajor,
                                         int computeMinor) {
    CompileRequest request;
    request.name = "mlp_lesson_tiled.cu";
    request.source = std::string(lessonTiledSource());
    request.options = {"-std=c++17",
                       "-DFS_BM=" + std::to_string(tiles.blockM),
                       "-DFS_BN=" + std::to_string(tiles.blockN),
                       "-DFS_BH=" + std::to_string(tiles.blockH),
                       "-DFS_BI=" + std::to_string(tiles.blockI),
                       std::string("-DFS_BF16=") + (dtype == DType::Bfloat16 ? "1" : "0"),
                       std::string("-DFS_TF32=") + (dtype == DType::Tf32 ? "1" : "0"),
                       "-DFS_STAGES=" + std::to_string(plan.stages),
                       "-DFS_AHEAD=" + std::to_string(plan.copiesAhead),
                       "-DFS_WARPS=" + std::to_string(plan.threads / 32),
                       std::string("-DFS_HIDDEN_IN_SLOT=") +
                           (lessonTiledHiddenInSlot(tiles, plan.refill) ? "1" : "0"),
                       "-DFS_REFILL=" + std::to_string(static_cast<int>(plan.refill))};
    if (plan.minBlocks > 0)
        request.options.push_back("-DFS_MIN_BLOCKS=" + std::to_string(plan.minBlocks));
    request.architecture = "sm_" + std::to_string(computeMajor) + std::to_string(computeMinor);
    // wgmma exists only in the architecture-specific target (sm_90a).
    if (lessonTiledWarpgroups(tiles, dtype, computeMajor)) {
        request.options.push_back("-DFS_WGMMA=1");
        request.architecture += "a";
    }
    return request;
}

LessonTiledEntry lessonTiledEntry(const LessonTiles& tiles, const MlpShape& shape) {
    const bool wholeWeights =
        shape.H % tiles.blockH == 0 && shape.H % tiles.blockN == 0 && shape.I % tiles.blockI == 0;
    if (!wholeWeights) return LessonTiledEntry::Edge;
    return shape.M % tiles.blockM == 0 ? LessonTiledEntry::Full : LessonTiledEntry::Rows;
}

void setLessonTilesAlwaysCompiled(bool always) {
    alwaysCompiled.store(always);
}

bool lessonTilesAlwaysCompiled() {
    return alwaysCompiled.load();
}

}  // namespace fusescope::mlp
