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

// The registry's first variant whose kernel compiles at run time for chosen tiles, at its
// pipeline's default problem; nothing where the registry declares none.
std::optional<TileConfiguration> firstTunableConfiguration();

// The declared tile model of the configuration's variant; nullptr where it takes no tiles.
const VariantTiles* variantTiles(const TileConfiguration& configuration);

// The launch the configuration's variant declares for its tiles (empty where it takes none).
LaunchGeometry geometryOf(const TileConfiguration& configuration, const DeviceLimits& limits);

// Why the configuration must not launch, or nothing: the variant takes tiles, then its declared
// refusal decides.
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

// What limits a tile: one of the model's resources, and the limiter's words that say how.
struct TileLimit {
    std::string resource;  // one of limitingResources(): "registers", "DRAM bandwidth", ...
    std::string words;     // "spills 96 B/thread"
};
// Every resource a tile can be limited by, as limitsOf names them.
const std::vector<std::string>& limitingResources();
// A measured cell's limits, most important first (limitersOf gives their words); a refused
// cell's one limit where its refusal names a resource (shared memory, threads per block, ...).
std::vector<TileLimit> limitsOf(const TileCell& cell, const TileSweep& sweep);

}  // namespace fusescope::tiles
