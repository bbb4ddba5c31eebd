#include "tiles/tile_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pipelines/mlp/mlp_executions.h"
#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "pipelines/mlp/mlp_production_tiled.h"
#include "pipelines/registry.h"
#include "platform/shared_memory_limit.h"

namespace fusescope::tiles {
namespace {

constexpr std::string_view kTileTunings[] = {"block_m", "block_n", "block_h", "block_i"};

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
    return b == 0 ? 0 : (a + b - 1) / b;
}

std::uint64_t roundUp(std::uint64_t a, std::uint64_t to) {
    return ceilDiv(a, to) * to;
}

std::string kib(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
    return text;
}

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

mlp::LessonTiles lessonTilesOf(const LessonTileValues& t) {
    return {t.blockM, t.blockN, t.blockH, t.blockI};
}

}  // namespace

LessonTileValues lessonTileValues(const TileConfiguration& configuration) {
    const Problem& p = configuration.problem;
    return {p.tuningValue(kTileTunings[0]), p.tuningValue(kTileTunings[1]),
            p.tuningValue(kTileTunings[2]), p.tuningValue(kTileTunings[3])};
}

LaunchGeometry lessonGeometry(const TileConfiguration& configuration, const DeviceLimits& limits) {
    const LessonTileValues t = lessonTileValues(configuration);
    const Problem& p = configuration.problem;
    LaunchGeometry g;
    g.kernelName = "swiglu_mlp_lesson_tiled";
    g.threadsPerBlock = mlp::kLessonTiledThreads;
    g.gridX = t.blockM > 0 ? ceilDiv(p.dimension("M"), static_cast<std::uint64_t>(t.blockM)) : 0;
    g.gridY = t.blockN > 0 ? ceilDiv(p.dimension("H"), static_cast<std::uint64_t>(t.blockN)) : 0;
    g.blocks = g.gridX * g.gridY;
    const mlp::LessonTiles tiles = lessonTilesOf(t);
    g.pipelineStages = mlp::lessonTiledStages(tiles, p.dtype, limits.sharedBytesPerBlockOptIn);
    g.dynamicSharedBytes = mlp::lessonTiledSharedBytes(tiles, p.dtype, g.pipelineStages);
    return g;
}

LaunchGeometry productionGeometry(const TileConfiguration& configuration) {
    const mlp::production::Tiles t = mlp::productionTilesOf(configuration.problem);
    const Problem& p = configuration.problem;
    LaunchGeometry g;
    g.kernelName = "mlp_gate_up_silu_tiled";
    g.threadsPerBlock = mlp::kProductionTiledThreads;
    g.gridX = ceilDiv(p.dimension("M"), static_cast<std::uint64_t>(t.tileM));
    g.gridY = ceilDiv(p.dimension("I"), static_cast<std::uint64_t>(t.tileI));
    g.blocks = g.gridX * g.gridY;
    g.pipelineStages = mlp::kProductionTiledStages;
    g.dynamicSharedBytes = mlp::productionTiledSharedBytes(t);
    return g;
}

bool isProduction(const TileConfiguration& configuration) {
    return configuration.pipeline == mlp::kPipelineName &&
           configuration.variant == mlp::kProductionVariant;
}

LaunchGeometry geometryOf(const TileConfiguration& configuration, const DeviceLimits& limits) {
    return isProduction(configuration) ? productionGeometry(configuration)
                                       : lessonGeometry(configuration, limits);
}

namespace {

// Every tuning the variant's kernel takes holds one of its declared values.
std::optional<TileRefusal> disallowedValue(const PipelineSpec& pipeline,
                                           const TileConfiguration& configuration) {
    for (const TuningSpec& spec : pipeline.tunings) {
        if (!spec.appliesTo(configuration.variant)) continue;
        const int value = configuration.problem.tuningValue(spec.name);
        if (std::find(spec.allowed.begin(), spec.allowed.end(), value) == spec.allowed.end())
            return TileRefusal{RefusalKind::NotTunable, spec.title + " " + std::to_string(value) +
                                                            " is not one of the allowed values (" +
                                                            allowedText(spec.allowed) + ")"};
    }
    return std::nullopt;
}

std::optional<TileRefusal> productionRefusal(const PipelineSpec& pipeline,
                                             const TileConfiguration& configuration,
                                             const DeviceLimits& limits) {
    const Problem& p = configuration.problem;
    if (p.dimension("M") <= static_cast<std::uint64_t>(mlp::kDecodeMaxRows))
        return TileRefusal{RefusalKind::NotTunable,
                           "at M <= " + std::to_string(mlp::kDecodeMaxRows) +
                               " the production fusion streams the weights with GEMV kernels, "
                               "which take no tiles"};
    if (std::optional<TileRefusal> refusal = disallowedValue(pipeline, configuration))
        return refusal;
    if (std::optional<std::string> reason =
            mlp::productionTilesRefusal(mlp::productionTilesOf(p), p.dtype))
        return TileRefusal{RefusalKind::NotTunable, *reason};
    const LaunchGeometry g = productionGeometry(configuration);
    if (g.gridY > 65535)
        return TileRefusal{RefusalKind::LargerThanProblem,
                           std::to_string(g.gridY) + " I tiles > the grid's 65535"};
    if (g.threadsPerBlock > limits.maxThreadsPerBlock)
        return TileRefusal{RefusalKind::Threads, std::to_string(g.threadsPerBlock) +
                                                     " threads per block > the device's " +
                                                     std::to_string(limits.maxThreadsPerBlock)};
    if (g.dynamicSharedBytes > limits.sharedBytesPerBlockOptIn)
        return TileRefusal{RefusalKind::SharedMemory,
                           sharedMemoryRefusal(g.dynamicSharedBytes,
                                               limits.sharedBytesPerBlockOptIn, limits.name)};
    return std::nullopt;
}

}  // namespace

std::optional<TileRefusal> refusalFor(const TileConfiguration& configuration,
                                      const DeviceLimits& limits) {
    const PipelineSpec* pipeline = findPipeline(configuration.pipeline);
    const VariantSpec* variant = pipeline ? findVariant(*pipeline, configuration.variant) : nullptr;
    if (!variant || !variant->tunableAtRunTime)
        return TileRefusal{RefusalKind::NotTunable,
                           "only the MLP's lesson_fused and production kernels compile for chosen "
                           "tiles"};
    if (isProduction(configuration)) return productionRefusal(*pipeline, configuration, limits);
    const LessonTileValues t = lessonTileValues(configuration);
    const std::pair<std::string_view, int> named[] = {
        {"BLOCK_M", t.blockM}, {"BLOCK_N", t.blockN}, {"BLOCK_H", t.blockH}, {"BLOCK_I", t.blockI}};
    for (const auto& [name, value] : named)
        if (value <= 0)
            return TileRefusal{RefusalKind::NotTunable, std::string(name) + " is not set"};
    if (configuration.problem.dtype != DType::Float32)
        for (const auto& [name, value] : named)
            if (value % kMmaTile != 0)
                return TileRefusal{RefusalKind::MmaShape,
                                   std::string(name) + " " + std::to_string(value) +
                                       " is not a multiple of 16, the warps' block of mma "
                                       "fragments"};
    if (std::optional<TileRefusal> refusal = disallowedValue(*pipeline, configuration))
        return refusal;
    const Problem& p = configuration.problem;
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
    const LaunchGeometry g = lessonGeometry(configuration, limits);
    if (g.threadsPerBlock > limits.maxThreadsPerBlock)
        return TileRefusal{RefusalKind::Threads, std::to_string(g.threadsPerBlock) +
                                                     " threads per block > the device's " +
                                                     std::to_string(limits.maxThreadsPerBlock)};
    if (g.dynamicSharedBytes > limits.sharedBytesPerBlockOptIn)
        return TileRefusal{
            RefusalKind::SharedMemory,
            sharedMemoryRefusal(g.dynamicSharedBytes, limits.sharedBytesPerBlockOptIn, limits.name,
                                g.pipelineStages > 1 ? "2 stages" : "")};
    return std::nullopt;
}

std::string gridWords(std::uint64_t blocks, int multiprocessors, int blocksPerMultiprocessor) {
    const auto sms = static_cast<std::uint64_t>(std::max(multiprocessors, 0));
    std::string words = std::to_string(blocks) + (blocks == 1 ? " block on " : " blocks on ") +
                        std::to_string(sms) + " SMs";
    if (blocks < sms) return words + ": " + std::to_string(sms - blocks) + " SMs idle";
    if (blocksPerMultiprocessor > 0 && sms > 0) {
        const double waves =
            static_cast<double>(blocks) / static_cast<double>(sms * blocksPerMultiprocessor);
        return words + " at " + std::to_string(blocksPerMultiprocessor) +
               " per SM: " + format("%.2f waves", waves);
    }
    return words;
}

ResourceReport modelReport(const TileConfiguration& configuration, const DeviceLimits& limits) {
    ResourceReport report;
    report.configuration = configuration;
    report.limits = limits;
    report.launch = geometryOf(configuration, limits);
    report.refusal = refusalFor(configuration, limits);
    if (const PipelineSpec* pipeline = findPipeline(configuration.pipeline))
        if (const VariantSpec* variant = findVariant(*pipeline, configuration.variant))
            for (const KernelSpec& kernel : variant->kernelsFor(configuration.problem)) {
                report.modelBytes += kernel.traffic.bytesRead() + kernel.traffic.bytesWritten();
                report.modelFlops += kernel.traffic.flops;
            }
    const double memoryMs =
        limits.copyBandwidthGBps > 0 ? report.modelBytes / (limits.copyBandwidthGBps * 1e6) : 0.0;
    const double computeMs =
        limits.computeTflops > 0 ? report.modelFlops / (limits.computeTflops * 1e9) : 0.0;
    report.predictedMs = std::max(memoryMs, computeMs);
    report.predictedBound = computeMs > memoryMs ? "compute" : "memory";
    const auto sms = static_cast<std::uint64_t>(std::max(limits.multiprocessors, 0));
    report.idleMultiprocessors =
        report.launch.blocks < sms ? static_cast<int>(sms - report.launch.blocks) : 0;
    report.gridWords = gridWords(report.launch.blocks, limits.multiprocessors, 0);
    return report;
}

ResourceReport withCompiled(ResourceReport report, const CompiledResources& compiled) {
    report.compiled = compiled;
    if (!compiled.known) return report;
    const int perSm = compiled.blocksPerMultiprocessor;
    report.gridWords = gridWords(report.launch.blocks, report.limits.multiprocessors, perSm);
    if (perSm > 0 && report.limits.multiprocessors > 0)
        report.waves = static_cast<double>(report.launch.blocks) /
                       (static_cast<double>(report.limits.multiprocessors) * perSm);
    if (perSm == 0 && !report.refusal)
        report.refusal = TileRefusal{
            RefusalKind::LaunchFailed,
            "no block fits on an SM (" + std::to_string(compiled.registersPerThread) +
                " registers/thread, " + kib(report.launch.dynamicSharedBytes) + " shared)"};
    return report;
}

std::string tilesText(const TileConfiguration& configuration) {
    std::string text;
    const PipelineSpec* pipeline = findPipeline(configuration.pipeline);
    if (!pipeline) return text;
    for (const TuningSpec& tuning : pipeline->tunings) {
        if (!tuning.appliesTo(configuration.variant)) continue;
        if (!text.empty()) text += ' ';
        text += tuning.name + "=" + std::to_string(configuration.problem.tuningValue(tuning.name));
    }
    return text;
}

std::vector<std::string> limitersOf(const TileCell& cell, const TileSweep& sweep) {
    std::vector<std::string> words;
    if (!cell.measured) return words;
    const ResourceReport& r = cell.report;
    if (r.compiled.known && r.compiled.localBytesPerThread > 0)
        words.push_back("spills " + std::to_string(r.compiled.localBytesPerThread) + " B/thread");
    if (r.idleMultiprocessors > 0) words.push_back(r.gridWords);
    const PipelineSpec* pipeline = findPipeline(r.configuration.pipeline);
    const std::string leanest = pipeline ? pipeline->leanestVariant : std::string();
    for (const ReferenceTiming& reference : sweep.references)
        if (!leanest.empty() && reference.variant == leanest && reference.modelBytes > 0) {
            const double ratio =
                static_cast<double>(r.modelBytes) / static_cast<double>(reference.modelBytes);
            if (ratio >= 1.5)
                words.push_back("re-reads " + format("%.1fx", ratio) +
                                " the production fusion's bytes");
        }
    if (r.compiled.known && r.compiled.theoreticalOccupancy > 0 &&
        r.compiled.theoreticalOccupancy < 0.125)
        words.push_back("occupancy " + format("%.0f%%", r.compiled.theoreticalOccupancy * 100) +
                        " (" + std::to_string(r.compiled.blocksPerMultiprocessor) + " block/SM)");
    const double computeShare =
        sweep.limits.computeTflops > 0 ? cell.tflops / sweep.limits.computeTflops : 0.0;
    const double memoryShare =
        sweep.limits.copyBandwidthGBps > 0 ? cell.gbps / sweep.limits.copyBandwidthGBps : 0.0;
    if (computeShare >= 0.6)
        words.push_back("compute bound: " + format("%.0f%%", computeShare * 100) +
                        " of the measured GEMM roof");
    // Requested bytes beyond what DRAM can deliver were served by the L2 (the re-reads).
    if (memoryShare > 1.2)
        words.push_back("the L2 serves re-reads: requested bytes at " +
                        format("%.1fx", memoryShare) + " the copy roof");
    else if (memoryShare >= 0.6)
        words.push_back("memory bound: " + format("%.0f%%", memoryShare * 100) +
                        " of the copy roof");
    if (words.empty())
        words.push_back("latency: " + format("%.0f%%", memoryShare * 100) + " of the copy roof, " +
                        format("%.0f%%", computeShare * 100) + " of the GEMM roof");
    return words;
}

void describeCells(TileSweep& sweep) {
    const TileCell* best = nullptr;
    for (const TileCell& cell : sweep.cells)
        if (cell.measured && cell.checkOk && (!best || cell.time.medianMs < best->time.medianMs))
            best = &cell;
    const TimingSpread bestTime = best ? best->time : TimingSpread{};
    for (TileCell& cell : sweep.cells) {
        cell.limiters = limitersOf(cell, sweep);
        cell.best = best == &cell;
        cell.tiedWithBest =
            best && cell.measured && cell.checkOk && !cell.best && overlaps(cell.time, bestTime);
    }
}

}  // namespace fusescope::tiles
