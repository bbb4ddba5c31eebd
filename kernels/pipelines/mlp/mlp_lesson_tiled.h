#pragma once
// The lesson's fused kernel for any allowed tiles, compiled at run time (mlp_lesson_tiled.cu,
// embedded in the program by CMake). This part needs no CUDA: the source, the compile request
// for a device, and the kernel's shared memory; mlp_lesson_tiled_cuda.cpp loads and launches.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pipelines/mlp/mlp_shape.h"
#include "platform/runtime_compiler.h"

namespace fusescope::mlp {

inline constexpr std::string_view kLessonTiledFullKernel = "swiglu_mlp_lesson_tiled_full";
inline constexpr std::string_view kLessonTiledRowsKernel = "swiglu_mlp_lesson_tiled_rows";
inline constexpr std::string_view kLessonTiledEdgeKernel = "swiglu_mlp_lesson_tiled_edge";

std::string_view lessonTiledSource();

// Whether these tiles multiply with Hopper's warpgroup MMA (wgmma, mlp_lesson_warpgroup.cuh) on
// a device of compute capability `computeMajor`: bfloat16 or TF32 at BLOCK_M 64 or 128 on compute
// capability 9, as the lesson's Triton kernel does there; mma.sync everywhere else.
bool lessonTiledWarpgroups(const LessonTiles& tiles, DType dtype, int computeMajor);

// Which slot the mma.sync kernel's copies of a step refill, and when (FS_REFILL).
enum class LessonRefill {
    // The previous step's, once this step's barrier has passed: the copies run stages - 1 steps
    // ahead, and a chunk's hidden tile may go into the slot its last step read.
    PreviousSlot = 0,
    // This step's own, once every warp holds the step's fragments in registers and a barrier has
    // passed (fsLdmatrixProductHeld): the copies run `stages` steps ahead, and the products wait
    // for the step's last fragment.
    OwnSlotAfterReads = 1,
    // This step's own, after its products and a barrier: the copies run `stages` steps ahead and
    // are issued before the next step waits for its tiles.
    OwnSlotAfterProducts = 2,
};

// Whether the mma.sync kernel writes a chunk's hidden tile into the ring slot its last step has
// just read (once every warp is done with it; no copy reaches that slot before the next step's
// barrier): where the BLOCK_M x BLOCK_I tile fits in a slot of x, gate and up tiles, and the
// copies refill the previous step's slot (LessonRefill), not that one.
bool lessonTiledHiddenInSlot(const LessonTiles& tiles,
                             LessonRefill refill = LessonRefill::PreviousSlot);

// Shared memory of the tiled kernel: bfloat16 and tf32 keep `stages` copies of the x, gate and up
// tiles, one of down's tile and the hidden tile where it is not in a slot (the wgmma kernel no
// hidden tile, which it keeps in registers, and 1 KiB to start its tiles on 1 KiB); float32 one
// stage with rows padded by one word.
std::uint64_t lessonTiledSharedBytes(const LessonTiles& tiles, DType dtype, int stages,
                                     int computeMajor,
                                     LessonRefill refill = LessonRefill::PreviousSlot);
// The copy pipeline's depth, where a block may use `sharedLimit` and the grid has
// `gridBlocksPerMultiprocessor` blocks for each multiprocessor (rounded up; 0 where unknown, which
// keeps the rules that need no grid): 4 where the grid has at most one block a multiprocessor and
// four fit (5 on the wgmma kernel where five fit; else 3, or 2 where 3 do not fit); otherwise 3
// stages, or 2 where 3 do not fit, or where a four-warp block with 3 would have a multiprocessor
// to itself and 2 let a second block share it (on the H200 one block a multiprocessor costs more
// than the third stage gains: a fourth stage that halved the blocks doubled the time), except on
// the wgmma kernel from BLOCK_N 64; in TF32 on mma.sync, 2 wherever they let more of the grid's
// blocks share a multiprocessor than 3 do; 4 where BLOCK_H is 32, BLOCK_I at most 64 and four
// fit, in bfloat16 and in TF32 on the wgmma kernel from BLOCK_N 32; float32: 1.
int lessonTiledStages(const LessonTiles& tiles, DType dtype, std::uint64_t sharedLimit,
                      int computeMajor, std::uint64_t gridBlocksPerMultiprocessor);
// The grid's blocks a multiprocessor for these tiles and shape, rounded up (0 without
// multiprocessors).
std::uint64_t lessonTiledBlocksPerMultiprocessor(const LessonTiles& tiles, std::uint64_t m,
                                                 std::uint64_t h, int multiprocessors);
// A block's threads: 128 (Triton's num_warps = 4), or 256 where a thread of four warps would hold
// 64 or more accumulators (bfloat16 off compute capability 9) or, in TF32 on mma.sync, where
// BLOCK_M is 64 or more. Such tiles make few blocks a multiprocessor: with four warps each
// sub-partition's tensor core waits on one warp's chain of mma.sync, with eight two warps take
// turns. The wgmma kernel has a warpgroup of 128 per 64 rows of BLOCK_M (two at BLOCK_M 64 where
// one would hold 128 accumulators a thread, unless the grid has blocks for two or more a
// multiprocessor (0: unknown) and two blocks of one warpgroup fit the `sharedLimit` of shared
// memory a block may use); the CUDA-core float32 kernel always has 128.
int lessonTiledThreads(const LessonTiles& tiles, DType dtype, int computeMajor,
                       std::uint64_t sharedLimit, std::uint64_t gridBlocksPerMultiprocessor);

// The blocks a multiprocessor the kernel is compiled for (its __launch_bounds__ minimum; 0: none):
// as many as the shared memory of `stages` lets share one, but no more than leave each thread 128
// registers, nor than the grid has for each multiprocessor (0: unknown). Without one ptxas sized
// the mma.sync kernel's registers for an occupancy the shared memory never allows (16/32/128/128,
// one block an SM: 72 registers and a spill), or took just over what a second block needs
// (64/128/64/64 on the wgmma kernel: 130 registers, one block of eight warps where the shared
// memory holds two). Fewer blocks where the bound would leave a thread's accumulators less than
// 32 registers of room; the wgmma kernel gets one only where it bounds the registers at 128 or
// fewer.
int lessonTiledMinBlocks(const LessonTiles& tiles, DType dtype, int stages,
                         std::uint64_t sharedLimit, int computeMajor,
                         std::uint64_t gridBlocksPerMultiprocessor);

// The refill for these tiles (mma.sync only; PreviousSlot elsewhere), where the plan with the
// previous slot refilled lets `blocksAnSm` blocks share a multiprocessor: the own slot after the
// products where a TF32 block has its multiprocessor to itself, and after the reads in bfloat16 at
// BLOCK_H 32 and BLOCK_I 128, whose steps are two k steps of 128 columns.
LessonRefill lessonTiledRefill(const LessonTiles& tiles, DType dtype, int computeMajor,
                               std::uint64_t blocksAnSm);

// How many steps ahead of the products the copies run with `stages` slots: stages - 1, but at
// most 3 on the wgmma kernel, whose products read their stage asynchronously (a slot beyond those
// is spare there, and lets one barrier a step do, mlp_lesson_warpgroup.cuh), and `stages` where
// the mma.sync kernel refills a step's own slot.
int lessonTiledCopiesAhead(const LessonTiles& tiles, DType dtype, int stages, int computeMajor,
                           LessonRefill refill = LessonRefill::PreviousSlot);

// How the kernel for these tiles runs on a device of compute capability `computeMajor` whose
// blocks may use `sharedLimit` of shared memory, for a grid of `gridBlocksPerMultiprocessor`
// blocks a multiprocessor: decided once, by the rules above, and compiled and launched as it is.
struct LessonTiledPlan {
    int stages = 0;       // the copy ring's slots (lessonTiledStages)
    int copiesAhead = 0;  // lessonTiledCopiesAhead
    int minBlocks = 0;    // the __launch_bounds__ minimum, 0 for none (lessonTiledMinBlocks)
    int threads = 0;      // a block's (lessonTiledThreads)
    // What a launch asks: lessonTiledSharedBytes at these stages, or more where that keeps a
    // third or later block off an SM (mlp_lesson_tiled.cpp, launchSharedBytes).
    std::uint64_t sharedBytes = 0;
    LessonRefill refill = LessonRefill::PreviousSlot;  // lessonTiledRefill
};
LessonTiledPlan lessonTiledPlan(const LessonTiles& tiles, DType dtype, int computeMajor,
                                std::uint64_t sharedLimit,
                                std::uint64_t gridBlocksPerMultiprocessor);

// The builds a run times on its own buffers before keeping one (KernelExecution::choose): the
// plan, then the plan with the other register bound (none where it has one; one block a
// multiprocessor where it has none). What ptxas makes of a bound moved single cells by -16% to
// +50% on an H100, and no rule of tiles and dtype chose it better than about half the time.
std::vector<LessonTiledPlan> lessonTiledBuilds(const LessonTiledPlan& plan);

// A plan's register bound in words: "no register bound", "registers for 2 blocks an SM".
std::string lessonTiledBoundText(const LessonTiledPlan& plan);

// What NVRTC compiles for these tiles and plan on a device of compute capability major.minor.
CompileRequest lessonTiledCompileRequest(const LessonTiles& tiles, DType dtype,
                                         const LessonTiledPlan& plan, int computeMajor,
                                         int computeMinor);

// Which entry point runs a shape: _full where every tile is whole (no bounds checks), _rows where
// H and I are whole tiles and M is not (only x's rows checked: at decode M is one row of an M
// tile), _edge elsewhere.
enum class LessonTiledEntry { Full, Rows, Edge };
LessonTiledEntry lessonTiledEntry(const LessonTiles& tiles, const MlpShape& shape);

// Tile sweeps compile even the default tiles at run time, so every cell runs the same code;
// otherwise the default tiles run the precompiled, hand-tuned kernel. Process-wide.
void setLessonTilesAlwaysCompiled(bool always);
bool lessonTilesAlwaysCompiled();

}  // namespace fusescope::mlp
