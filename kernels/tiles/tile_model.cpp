#include "tiles/tile_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/byte_text.h"
#include "pipelines/registry.h"

namespace fusescope::tiles {
namespace {

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

}  // namespace

std::optional<TileConfiguration> firstTunableConfiguration() {
    const auto tunable = tunableVariants();
    if (tunable.empty()) return std::nullopt;
    const auto& [pipeline, variant] = tunable.front();
    return TileConfiguration{pipeline->name, variant->name, pipeline->defaultProblem()};
}

const VariantTiles* variantTiles(const TileConfiguration& configuration) {
    const PipelineSpec* pipeline = findPipeline(configuration.pipeline);
    const VariantSpec* variant = pipeline ? findVariant(*pipeline, configuration.variant) : nullptr;
    return variant && variant->tiles ? &*variant->tiles : nullptr;
}

LaunchGeometry geometryOf(const TileConfiguration& configuration, const DeviceLimits& limits) {
    const VariantTiles* tiles = variantTiles(configuration);
    return tiles ? tiles->geometry(configuration.problem, limits) : LaunchGeometry{};
}

std::optional<TileRefusal> refusalFor(const TileConfiguration& configuration,
                                      const DeviceLimits& limits) {
    const VariantTiles* tiles = variantTiles(configuration);
    if (!tiles)
        return TileRefusal{RefusalKind::NotTunable,
                           "the " + configuration.pipeline + " pipeline's " +
                               configuration.variant +
                               " variant declares no tiles that compile at run time"};
    return tiles->refusal(*findPipeline(configuration.pipeline), configuration.variant,
                          configuration.problem, limits);
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
        report.refusal =
            TileRefusal{RefusalKind::LaunchFailed,
                        "no block fits on an SM (" + std::to_string(compiled.registersPerThread) +
                            " registers/thread, " +
                            kibibytesText(report.launch.dynamicSharedBytes) + " shared)"};
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

const std::vector<std::string>& limitingResources() {
    static const std::vector<std::string> resources = {"registers",         "SMs",
                                                       "re-reads",          "occupancy",
                                                       "compute",           "L2",
                                                       "DRAM bandwidth",    "latency",
                                                       "shared memory",     "threads per block",
                                                       "tensor-core shape", "problem size"};
    return resources;
}

std::vector<TileLimit> limitsOf(const TileCell& cell, const TileSweep& sweep) {
    std::vector<TileLimit> limits;
    const ResourceReport& r = cell.report;
    if (!cell.measured) {
        if (!r.refusal) return limits;
        switch (r.refusal->kind) {
            case RefusalKind::SharedMemory:
                return {{"shared memory", r.refusal->reason}};
            case RefusalKind::Threads:
                return {{"threads per block", r.refusal->reason}};
            case RefusalKind::MmaShape:
                return {{"tensor-core shape", r.refusal->reason}};
            case RefusalKind::LargerThanProblem:
                return {{"problem size", r.refusal->reason}};
            default:
                return limits;
        }
    }
    if (r.compiled.known && r.compiled.localBytesPerThread > 0)
        limits.push_back({"registers", "spills " + std::to_string(r.compiled.localBytesPerThread) +
                                           " B/thread"});
    if (r.idleMultiprocessors > 0) limits.push_back({"SMs", r.gridWords});
    const PipelineSpec* pipeline = findPipeline(r.configuration.pipeline);
    const std::string leanest = pipeline ? pipeline->leanestVariant : std::string();
    for (const ReferenceTiming& reference : sweep.references)
        if (!leanest.empty() && reference.variant == leanest && reference.modelBytes > 0) {
            const double ratio =
                static_cast<double>(r.modelBytes) / static_cast<double>(reference.modelBytes);
            if (ratio >= 1.5)
                limits.push_back({"re-reads", "re-reads " + format("%.1fx", ratio) +
                                                  " the bytes of " + leanest});
        }
    if (r.compiled.known && r.compiled.theoreticalOccupancy > 0 &&
        r.compiled.theoreticalOccupancy < 0.125)
        limits.push_back(
            {"occupancy", "occupancy " + format("%.0f%%", r.compiled.theoreticalOccupancy * 100) +
                              " (" + std::to_string(r.compiled.blocksPerMultiprocessor) +
                              " block/SM)"});
    const double computeShare =
        sweep.limits.computeTflops > 0 ? cell.tflops / sweep.limits.computeTflops : 0.0;
    const double memoryShare =
        sweep.limits.copyBandwidthGBps > 0 ? cell.gbps / sweep.limits.copyBandwidthGBps : 0.0;
    if (computeShare >= 0.6)
        limits.push_back({"compute", "compute bound: " + format("%.0f%%", computeShare * 100) +
                                         " of the measured GEMM roof"});
    // Requested bytes beyond what DRAM can deliver were served by the L2 (the re-reads).
    if (memoryShare > 1.2)
        limits.push_back({"L2", "the L2 serves re-reads: requested bytes at " +
                                    format("%.1fx", memoryShare) + " the copy roof"});
    else if (memoryShare >= 0.6)
        limits.push_back({"DRAM bandwidth", "memory bound: " + format("%.0f%%", memoryShare * 100) +
                                                " of the copy roof"});
    if (limits.empty())
        limits.push_back(
            {"latency", "latency: " + format("%.0f%%", memoryShare * 100) + " of the copy roof, " +
                            format("%.0f%%", computeShare * 100) + " of the GEMM roof"});
    return limits;
}

std::vector<std::string> limitersOf(const TileCell& cell, const TileSweep& sweep) {
    std::vector<std::string> words;
    if (!cell.measured) return words;
    for (const TileLimit& limit : limitsOf(cell, sweep)) words.push_back(limit.words);
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
