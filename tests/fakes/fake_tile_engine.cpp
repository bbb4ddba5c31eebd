#include "fakes/fake_tile_engine.h"

#include <chrono>
#include <cmath>
#include <thread>

#include "pipelines/registry.h"
#include "tiles/tile_model.h"

namespace fusescope::testing {
namespace {

constexpr const char* kDeviceName = "stand-in GPU (test compiler and executor)";

tiles::DeviceLimits standInLimits(DType dtype) {
    tiles::DeviceLimits limits =
        tiles::knownGpuLimits("h200", dtype).value_or(tiles::DeviceLimits{});
    limits.name = kDeviceName;
    return limits;
}

}  // namespace

void FakeTileEngine::holdBefore(Step step, std::size_t index) {
    const std::lock_guard lock(mutex_);
    hold_ = std::make_pair(step, index);
}

void FakeTileEngine::release() {
    {
        const std::lock_guard lock(mutex_);
        hold_.reset();
    }
    wake_.notify_all();
}

template <typename Cancelled>
bool FakeTileEngine::passHold(Step step, std::size_t index, const Cancelled& cancelled) {
    std::unique_lock lock(mutex_);
    if (!hold_ || *hold_ != std::make_pair(step, index)) return !cancelled();
    holding_ = true;
    while (hold_ && !cancelled()) wake_.wait_for(lock, std::chrono::milliseconds(2));
    holding_ = false;
    return !cancelled();
}

template <typename Cancelled>
bool FakeTileEngine::work(int ms, const Cancelled& cancelled) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < end) {
        if (cancelled()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return !cancelled();
}

double FakeTileEngine::medianMsOf(const tiles::TileConfiguration& configuration) {
    // Tiles near 32 are fastest; each factor of two away costs a fifth more.
    double ms = 0.5;
    for (const auto& [name, value] : configuration.problem.tuning)
        ms *= 1.0 + 0.2 * std::abs(std::log2(std::max(value, 1) / 32.0));
    return ms;
}

std::string FakeTileEngine::compileFailureReason() const {
    return "the compiler rejected the source: " + script_.compileLog;
}

tiles::ResourceReport FakeTileEngine::compile(const tiles::TileConfiguration& configuration,
                                              const tiles::DeviceLimits& limits) {
    tiles::ResourceReport report = tiles::modelReport(configuration, limits);
    if (report.refusal) return report;
    ++compiled_;
    if (script_.failingCompiles.count(tiles::tilesText(configuration))) {
        report.refusal =
            tiles::TileRefusal{tiles::RefusalKind::CompileFailed, compileFailureReason()};
        return report;
    }
    report.compiled.known = true;
    report.compiled.registersPerThread = 64;
    report.compiled.maxThreadsPerBlock = limits.maxThreadsPerBlock;
    report.compiled.blocksPerMultiprocessor = 1;
    report.compiled.origin = "stand-in compiler";
    report.compiled.compileMs = script_.compileSeconds * 1e3;
    return tiles::withCompiled(report, report.compiled);
}

tiles::TileCell FakeTileEngine::measure(const tiles::ResourceReport& report, int repeats) const {
    tiles::TileCell cell;
    cell.report = report;
    cell.measured = true;
    const double median = medianMsOf(report.configuration);
    cell.time.medianMs = median;
    cell.time.q1Ms = median * 0.995;
    cell.time.q3Ms = median * 1.005;
    cell.time.minMs = median * 0.99;
    cell.time.maxMs = median * 1.01;
    cell.time.repeats = repeats;
    cell.requestedBytes = report.modelBytes;
    cell.gbps = static_cast<double>(report.modelBytes) / (median * 1e-3) / 1e9;
    cell.tflops = report.modelFlops / (median * 1e-3) / 1e12;
    cell.checkOk = true;
    return cell;
}

Result<tiles::ResourceReport> FakeTileEngine::report(
    Backend&, const tiles::TileConfiguration& configuration) {
    return compile(configuration, standInLimits(configuration.problem.dtype));
}

Result<tiles::TileRunResult> FakeTileEngine::run(Backend&,
                                                 const tiles::TileConfiguration& configuration,
                                                 const RunSettings& settings,
                                                 RunObserver& observer) {
    const auto cancelled = [&observer] { return observer.cancelled(); };
    tiles::TileRunResult result;
    result.cell.report = compile(configuration, standInLimits(configuration.problem.dtype));
    if (!work(script_.compileDelayMs, cancelled)) return Status(ErrorCode::Cancelled, "cancelled");
    if (result.cell.report.refusal) return result;
    observer.progress(0.5, "timing " + tiles::tilesText(configuration));
    if (!work(script_.measureDelayMs, cancelled)) return Status(ErrorCode::Cancelled, "cancelled");
    result.cell = measure(result.cell.report, settings.repeats);
    ++measured_;
    return result;
}

Result<tiles::TileSweep> FakeTileEngine::sweep(Backend&, const tiles::TileSweepRequest& request,
                                               tiles::TileObserver& observer) {
    const auto cancelled = [&observer] { return observer.cancelled(); };
    const PipelineSpec* pipeline = findPipeline(request.base.pipeline);
    if (!pipeline)
        return Status(ErrorCode::InvalidArgument, "no pipeline " + request.base.pipeline);
    tiles::TileSweep sweep;
    sweep.request = request;
    sweep.deviceName = kDeviceName;
    sweep.compilerVersion = "stand-in compiler";
    sweep.limits = standInLimits(request.base.problem.dtype);
    const std::vector<tiles::TileConfiguration> configurations = tiles::configurationsOf(request);
    const std::size_t total = configurations.size();

    // The other variants: the 5-kernel path twice as slow as the base tiles, the others at 0.9.
    if (request.references)
        for (const VariantSpec& variant : pipeline->variants) {
            if (variant.name == request.base.variant) continue;
            tiles::ReferenceTiming reference;
            reference.variant = variant.name;
            reference.title = variant.title;
            const double median = medianMsOf(request.base) * (variant.fused ? 0.9 : 2.0);
            reference.time = tiles::spreadOf({median * 0.995, median, median * 1.005});
            reference.checkOk = true;
            sweep.references.push_back(reference);
        }

    // On the engine's clock: every compile, then every measurement.
    double remainingSeconds =
        static_cast<double>(total) * (script_.compileSeconds + script_.measureSeconds);
    std::vector<tiles::ResourceReport> reports;
    for (std::size_t index = 0; index < total; ++index) {
        observer.progress(0.3 * static_cast<double>(index) / static_cast<double>(total),
                          "compiling " + std::to_string(index + 1) + " of " +
                              std::to_string(total) + " configurations",
                          remainingSeconds);
        if (!passHold(Step::Compile, index, cancelled) ||
            !work(script_.compileDelayMs, cancelled)) {
            sweep.cancelled = true;
            observer.progress(1.0, "cancelled", 0.0);
            return sweep;
        }
        reports.push_back(compile(configurations[index], sweep.limits));
        if (reports.back().refusal) remainingSeconds -= script_.measureSeconds;
        remainingSeconds -= script_.compileSeconds;
        ++sweep.modulesCompiled;
        sweep.compileWallMs += script_.compileDelayMs;
    }
    for (std::size_t index = 0; index < total; ++index) {
        tiles::TileCell cell;
        cell.report = reports[index];
        if (!cell.report.refusal) {
            observer.progress(0.3 + 0.7 * static_cast<double>(index) / static_cast<double>(total),
                              "timing " + tiles::tilesText(configurations[index]),
                              remainingSeconds);
            if (!passHold(Step::Measure, index, cancelled) ||
                !work(script_.measureDelayMs, cancelled)) {
                sweep.cancelled = true;
                break;
            }
            cell = measure(cell.report, request.settings.repeats);
            ++measured_;
            remainingSeconds -= script_.measureSeconds;
        }
        sweep.cells.push_back(std::move(cell));
        tiles::describeCells(sweep);
        observer.cellMeasured(sweep.cells.back(), index);
    }
    tiles::describeCells(sweep);
    observer.progress(1.0, sweep.cancelled ? "cancelled" : "done", 0.0);
    return sweep;
}

}  // namespace fusescope::testing
