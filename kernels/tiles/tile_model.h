#pragma once
// The tile explorer's model side: everything known about a configuration without running it, as
// pure functions of the configuration and the device limits (so tests hand-make limits, and a
// machine without a GPU still gets the model numbers for a GPU from the table): the launch
// geometry, the refusal, the report with bytes, FLOPs and a predicted time, and the words that
// name a measured cell's limiter.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tiles/tile_types.h"

namespace fusescope::tiles {

// The table of known GPUs for model-only reports ("h200", "h100", "a100", "l4"), their spec-sheet
// roofs for the dtype (bfloat16 on the tensor cores, float32 on the CUDA cores).
std::vector<std::string> knownGpuKeys();
std::optional<DeviceLimits> knownGpuLimits(std::string_view key, DType dtype);

// The tensor-core fragment every bfloat16 tile must be a whole number of (rows and columns of
// mma.m16n8k16 with ldmatrix.x4 B fragments).
inline constexpr int kMmaTile = 16;

// Block sizes of the lesson kernel a configuration names (block_m, block_n, block_h, block_i).
struct LessonTileValues {
    int blockM = 0, blockN = 0, blockH = 0, blockI = 0;
};
LessonTileValues lessonTileValues(const TileConfiguration& configuration);

// Geometry of the run-time compiled lesson kernel for these tiles: grid, threads, and the
// shared memory of the deepest copy pipeline (3 stages, else 2) that fits the per-block limit.
LaunchGeometry lessonGeometry(const TileConfiguration& configuration, const DeviceLimits& limits);

// Geometry of the production fusion's run-time compiled gate_up kernel (tile_m, tile_i): a grid
// of M tiles x I tiles, 256 threads, 3 stages of x, gate and up tiles 64 deep.
LaunchGeometry productionGeometry(const TileConfiguration& configuration);
bool isProduction(const TileConfiguration& configuration);
// The geometry of the kernel the configuration's variant compiles (lesson or production).
LaunchGeometry geometryOf(const TileConfiguration& configuration, const DeviceLimits& limits);

// Why the configuration must not launch, or nothing. Checked in this order: the variant takes
// tiles; tiles fit the mma shapes (bfloat16); the values are allowed; no tile is larger than its
// dimension rounded up to 16 (the extra rows or columns would be all padding); threads; shared
// memory. The production fusion: its GEMM runs (M above the decode rows); the values are allowed;
// bfloat16 unless the tiles are the precompiled kernel's; the grid; threads; shared memory.
std::optional<TileRefusal> refusalFor(const TileConfiguration& configuration,
                                      const DeviceLimits& limits);

// "32 blocks on 132 SMs: 100 SMs idle"; with blocks per SM known and the grid larger than the
// SM count, the waves it takes.
std::string gridWords(std::uint64_t blocks, int multiprocessors, int blocksPerMultiprocessor);

// The report before running, from the model alone: geometry, refusal, bytes and FLOPs from the
// traffic model, the predicted time against the limits' roofs, idle SMs. `compiled` stays
// unknown; withCompiled adds it.
ResourceReport modelReport(const TileConfiguration& configuration, const DeviceLimits& limits);
// The report with the loaded kernel's resources: blocks per SM refine waves and grid words, and
// a kernel of which no block fits an SM is refused.
ResourceReport withCompiled(ResourceReport report, const CompiledResources& compiled);

// "block_m=64 block_n=64 block_h=32 block_i=64" (the variant's tunings in declaration order).
std::string tilesText(const TileConfiguration& configuration);

// The cells' limiters in words and the best and tied marks, from the sweep's roofs and its
// reference timings. Call after the last cell (or each time a cell arrives: it is idempotent).
void describeCells(TileSweep& sweep);
std::vector<std::string> limitersOf(const TileCell& cell, const TileSweep& sweep);

}  // namespace fusescope::tiles
