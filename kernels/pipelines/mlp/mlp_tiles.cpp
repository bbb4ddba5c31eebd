#include "pipelines/mlp/mlp_tiles.h"

#include <string>
#include <utility>

#include "pipelines/mlp/mlp_executions.h"
#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "pipelines/mlp/mlp_production_tiled.h"
#include "pipelines/registry.h"

namespace fusescope::mlp {
namespace {

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
    return b == 0 ? 0 : (a + b - 1) / b;
}

std::uint64_t roundUp(std::uint64_t a, std::uint64_t to) {
    return ceilDiv(a, to) * to;
}

// Sweeps compile the default tiles of both tunable kernels too (one process-wide setting).
bool compileEveryTile(bool always) {
    const bool previous = lessonTilesAlwaysCompiled();
    setLessonTilesAlwaysCompiled(always);
    return previous;
}

// Grid, threads, and the shared memory of the copy pipeline the lesson kernel's plan has for this
// grid on this device.
LaunchGeometry lessonGeometry(const Problem& p, const DeviceLimits& limits) {
    const LessonTiles t = tilesOf(p);
    const LessonTiledPlan plan =
        lessonTiledPlan(t, p.dtype, limits.computeCapabilityMajor, limits.sharedBytesPerBlockOptIn,
                        lessonTiledBlocksPerMultiprocessor(t, p.dimension("M"), p.dimension("H"),
                                                           limits.multiprocessors));
    LaunchGeometry g;
    g.kernelName = "swiglu_mlp_lesson_tiled";
    g.threadsPerBlock = plan.threads;
    g.gridX = t.blockM > 0 ? ceilDiv(p.dimension("M"), static_cast<std::uint64_t>(t.blockM)) : 0;
    g.gridY = t.blockN > 0 ? ceilDiv(p.dimension("H"), static_cast<std::uint64_t>(t.blockN)) : 0;
    g.blocks = g.gridX * g.gridY;
    g.pipelineStages = plan.stages;
    g.dynamicSharedBytes = plan.sharedBytes;
    return g;
}

// Checked in this order: every tile set; tiles fit the mma shapes (bfloat16, tf32); the values
// are allowed; no tile is larger than its dimension rounded up to 16 (the extra rows or columns
// would be all padding); threads; shared memory.
std::optional<TileRefusal> lessonRefusal(const PipelineSpec& pipeline, std::string_view variant,
                                         const Problem& p, const DeviceLimits& limits) {
    const LessonTiles t = tilesOf(p);
    const std::pair<std::string_view, int> named[] = {
        {"BLOCK_M", t.blockM}, {"BLOCK_N", t.blockN}, {"BLOCK_H", t.blockH}, {"BLOCK_I", t.blockI}};
    for (const auto& [name, value] : named)
        if (value <= 0)
            return TileRefusal{RefusalKind::NotTunable, std::string(name) + " is not set"};
    if (p.dtype != DType::Float32)
        for (const auto& [name, value] : named)
            if (value % kMmaTile != 0)
                return TileRefusal{RefusalKind::MmaShape,
                                   std::string(name) + " " + std::to_string(value) +
                                       " is not a multiple of 16, the warps' block of mma "
                                       "fragments"};
    if (std::optional<TileRefusal> refusal = disallowedTile(pipeline, variant, p)) return refusal;
    const std::pair<int, std::string_view> against[] = {{0, "M"}, {1, "H"}, {2, "H"}, {3, "I"}};
    for (const auto& [index, dimension] : against) {
        const std::uint64_t extent = roundUp(p.dimension(dimension), kMmaTile);
        const int value = named[index].second;
        if (static_cast<std::uint64_t>(value) > extent)
            return TileRefusal{RefusalKind::LargerThanProblem,
                               std::string(named[index].first) + " " + std::to_string(value) +
                                   " > " + std::string(dimension) + " rounded up to 16 (" +
                                   std::to_string(extent) + "): the extra rows are all padding"};
    }
    const LaunchGeometry g = lessonGeometry(p, limits);
    return launchRefusal(g, limits, g.pipelineStages > 1 ? "2 stages" : "");
}

// A grid of M tiles x I tiles, 256 threads, 3 stages of x, gate and up tiles 64 deep.
LaunchGeometry productionGeometry(const Problem& p, const DeviceLimits&) {
    const production::Tiles t = productionTilesOf(p);
    LaunchGeometry g;
    g.kernelName = "mlp_gate_up_silu_tiled";
    g.threadsPerBlock = kProductionTiledThreads;
    g.gridX = ceilDiv(p.dimension("M"), static_cast<std::uint64_t>(t.tileM));
    g.gridY = ceilDiv(p.dimension("I"), static_cast<std::uint64_t>(t.tileI));
    g.blocks = g.gridX * g.gridY;
    g.pipelineStages = kProductionTiledStages;
    g.dynamicSharedBytes = productionTiledSharedBytes(t);
    return g;
}

// Its GEMM runs (M above the decode rows); the values are allowed; bfloat16 unless the tiles are
// the precompiled kernel's; the grid; threads; shared memory.
std::optional<TileRefusal> productionRefusal(const PipelineSpec& pipeline, std::string_view variant,
                                             const Problem& p, const DeviceLimits& limits) {
    if (p.dimension("M") <= static_cast<std::uint64_t>(kDecodeMaxRows))
        return TileRefusal{RefusalKind::NotTunable,
                           "at M <= " + std::to_string(kDecodeMaxRows) +
                               " the production fusion streams the weights with GEMV kernels, "
                               "which take no tiles"};
    if (std::optional<TileRefusal> refusal = disallowedTile(pipeline, variant, p)) return refusal;
    if (std::optional<std::string> reason = productionTilesRefusal(productionTilesOf(p), p.dtype))
        return TileRefusal{RefusalKind::NotTunable, *reason};
    const LaunchGeometry g = productionGeometry(p, limits);
    if (g.gridY > 65535)
        return TileRefusal{RefusalKind::LargerThanProblem,
                           std::to_string(g.gridY) + " I tiles > the grid's 65535"};
    return launchRefusal(g, limits);
}

// The CPU backend runs the production fusion as one CPU kernel whatever its tiles: timing other
// tiles there would compare the same code with itself.
std::optional<std::string> productionCpuRefusal(const Problem& p) {
    if (productionTilesOf(p) == production::kDefaultTiles) return std::nullopt;
    return "the CPU backend runs the production fusion the same way for every tile: its tiles "
           "are the GPU kernel's";
}

}  // namespace

VariantTiles lessonVariantTiles() {
    VariantTiles tiles;
    tiles.geometry = lessonGeometry;
    tiles.refusal = lessonRefusal;
    tiles.precompiledKernel = "swiglu_mlp_lesson (precompiled)";
    tiles.compileEveryTile = compileEveryTile;
    return tiles;
}

VariantTiles productionVariantTiles() {
    VariantTiles tiles;
    tiles.geometry = productionGeometry;
    tiles.refusal = productionRefusal;
    tiles.cpuRefusal = productionCpuRefusal;
    tiles.precompiledKernel = "gemm_gate_up_silu (precompiled)";
    tiles.compileEveryTile = compileEveryTile;
    return tiles;
}

}  // namespace fusescope::mlp
