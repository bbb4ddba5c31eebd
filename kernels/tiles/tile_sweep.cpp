#include "tiles/tile_sweep.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "pipelines/registry.h"
#include "pipelines/runtime_registry.h"
#include "runtime/cancel_only_observer.h"
#include "runtime/kernel_launch_of.h"
#include "tiles/tile_model.h"

namespace fusescope::tiles {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return text;
}

// Every cell of a sweep runs the same run-time compiled code, the default tiles included.
class AlwaysCompiledTiles {
  public:
    explicit AlwaysCompiledTiles(const VariantSpec& variant)
        : compileEveryTile_(variant.tiles ? variant.tiles->compileEveryTile : nullptr),
          previous_(compileEveryTile_ && compileEveryTile_(true)) {}
    ~AlwaysCompiledTiles() {
        if (compileEveryTile_) compileEveryTile_(previous_);
    }
    AlwaysCompiledTiles(const AlwaysCompiledTiles&) = delete;
    AlwaysCompiledTiles& operator=(const AlwaysCompiledTiles&) = delete;

  private:
    std::function<bool(bool)> compileEveryTile_;
    bool previous_;
};

RunRequest requestFor(const TileConfiguration& configuration, const RunSettings& settings,
                      const Target& target) {
    RunRequest request;
    request.pipeline = configuration.pipeline;
    request.variants = {configuration.variant};
    request.problem = configuration.problem;
    request.settings = settings;
    request.target = target;
    return request;
}

// What planning a configuration's launches needs of a request: its problem, nothing timed.
RunRequest planningRequest(const TileConfiguration& configuration) {
    return requestFor(configuration, RunSettings{1, 0, 0}, Target{});
}

CompiledResources compiledFrom(const KernelResources& r) {
    CompiledResources c;
    c.known = r.known;
    c.registersPerThread = r.registersPerThread;
    c.localBytesPerThread = r.localBytesPerThread;
    c.staticSharedBytes = r.staticSharedBytes;
    c.maxThreadsPerBlock = r.blockSize;
    c.blocksPerMultiprocessor = r.blocksPerMultiprocessor;
    c.theoreticalOccupancy = r.theoreticalOccupancy;
    c.origin = r.origin;
    c.compileMs = r.compileMs;
    c.choice = r.choice;
    return c;
}

// A launch the backend could not prepare: NVRTC missing, or its compilation failed.
TileRefusal refusalFromStatus(const Status& status) {
    const bool noCompiler = status.message().find("NVRTC not found") != std::string::npos;
    return {noCompiler ? RefusalKind::NoCompiler : RefusalKind::CompileFailed, status.message()};
}

// The cell of a measured run of the configuration's variant.
TileCell cellFrom(ResourceReport report, const VariantResult& result) {
    TileCell cell;
    if (!result.kernels.empty())
        report = withCompiled(report, compiledFrom(result.kernels[0].resources));
    cell.report = std::move(report);
    cell.measured = true;
    cell.time = spreadOf(result.repeatTimesMs);
    if (cell.time.repeats == 0) cell.time = spreadOf({result.timeMs});
    const double seconds = cell.time.medianMs * 1e-3;
    cell.requestedBytes = result.modelBytesRead + result.modelBytesWritten;
    cell.gbps = seconds > 0 ? static_cast<double>(cell.requestedBytes) / seconds * 1e-9 : 0.0;
    cell.tflops = seconds > 0 ? result.modelFlops / seconds * 1e-12 : 0.0;
    cell.checkOk = result.check.ok;
    cell.checkError = result.check.error;
    cell.checkTolerance = result.check.tolerance;
    if (!result.kernels.empty() && result.kernels[0].counters) {
        const KernelCounters& k = *result.kernels[0].counters;
        cell.dramBytes = k.dramBytesRead + k.dramBytesWritten;
    }
    return cell;
}

// Where the backend is not the GPU, the variant's declared CPU refusal.
std::optional<TileRefusal> backendRefusal(const Backend& backend,
                                          const TileConfiguration& configuration) {
    const VariantTiles* tiles = variantTiles(configuration);
    if (backend.kind() == BackendKind::Cuda || !tiles || !tiles->cpuRefusal) return std::nullopt;
    if (std::optional<std::string> reason = tiles->cpuRefusal(configuration.problem))
        return TileRefusal{RefusalKind::NotTunable, *reason};
    return std::nullopt;
}

void addBackendRefusal(const Backend& backend, ResourceReport& report) {
    if (!report.refusal) report.refusal = backendRefusal(backend, report.configuration);
}

Status checkRequest(const TileSweepRequest& request) {
    const PipelineSpec* pipeline = findPipeline(request.base.pipeline);
    if (!pipeline)
        return Status(ErrorCode::InvalidArgument, "no pipeline named " + request.base.pipeline);
    if (!findVariant(*pipeline, request.base.variant))
        return Status(ErrorCode::InvalidArgument,
                      "the " + pipeline->name + " pipeline has no variant " + request.base.variant);
    if (request.settings.repeats < 1 || request.settings.repeats > kMaxRepeats)
        return Status(ErrorCode::InvalidArgument,
                      "repeats must lie in [1, " + std::to_string(kMaxRepeats) + "]");
    for (const TileAxis& axis : request.axes) {
        const TuningSpec* tuning = pipeline->findTuning(axis.tuning);
        if (!tuning)
            return Status(ErrorCode::InvalidArgument,
                          "the " + pipeline->name + " pipeline has no tuning " + axis.tuning);
        if (!tuning->appliesTo(request.base.variant))
            return Status(ErrorCode::InvalidArgument, axis.tuning + " is a tile of the " +
                                                          tuning->variant + " kernel, not of the " +
                                                          request.base.variant + " kernel");
        if (axis.values.empty())
            return Status(ErrorCode::InvalidArgument, "the axis " + axis.tuning + " has no values");
    }
    return checkProblem(*pipeline, withDefaults(*pipeline, request.base.problem));
}

// Times the pipeline's other variants once (the copy and compute roofs come with the run).
Result<RunReport> measureReferences(Backend& backend, const TileSweepRequest& request,
                                    std::vector<std::string> variants, RunObserver& observer) {
    RunRequest run = cellRunRequest(request, request.base);
    // A variant with no code here for this problem (the MLP's production fusion in tf32 on a
    // GPU) is no reference; the others are.
    if (const PipelineSpec* pipeline = findPipeline(run.pipeline))
        for (const std::string& name : variants) {
            const VariantSpec* variant = findVariant(*pipeline, name);
            std::vector<KernelSpec> kernels;
            if (variant && planLaunches(backend, *variant, run, kernels))
                run.variants.push_back(name);
        }
    if (run.variants.empty()) run.variants = std::move(variants);  // runPipeline says why
    return runPipeline(backend, run, observer);
}

}  // namespace

RunRequest cellRunRequest(const TileSweepRequest& request, const TileConfiguration& configuration) {
    return requestFor(configuration, request.settings, request.target);
}

DeviceLimits liveLimits(Backend& backend, DType dtype) {
    const DeviceInfo d = backend.describe();
    DeviceLimits l;
    if (d.backend != BackendKind::Cuda) {
        // The CPU backend runs the kernels' CPU versions: the GPU model numbers are the H200's.
        l = knownGpuLimits("h200", dtype).value_or(DeviceLimits{});
        l.name = "CPU backend (" + d.name + "); GPU limits of the NVIDIA H200";
        l.live = false;
        l.copyBandwidthGBps = 0.0;  // a run measures the CPU's copy; no GEMM roof on the CPU
        l.copyBandwidthSource.clear();
        l.computeTflops = 0.0;
        l.computeSource = "not measured on the CPU backend";
        return l;
    }
    l.name = d.name;
    l.live = true;
    l.deviceIndex = d.deviceIndex;
    l.computeCapabilityMajor = d.computeCapabilityMajor;
    l.computeCapabilityMinor = d.computeCapabilityMinor;
    l.multiprocessors = d.multiprocessors;
    l.maxThreadsPerBlock = d.maxThreadsPerBlock;
    l.maxThreadsPerMultiprocessor = d.maxThreadsPerMultiprocessor;
    l.maxBlocksPerMultiprocessor = d.maxBlocksPerMultiprocessor;
    l.registersPerMultiprocessor = d.registersPerMultiprocessor;
    l.sharedBytesPerBlockOptIn = d.sharedBytesPerBlockOptIn;
    l.sharedBytesPerMultiprocessor = d.sharedBytesPerMultiprocessor;
    l.reservedSharedBytesPerBlock = d.reservedSharedBytesPerBlock;
    l.copyBandwidthGBps = d.theoreticalBandwidthGBps;
    l.copyBandwidthSource = "theoretical (memory clock x bus width)";
    // Until a run measures the GEMM roof, the spec sheet's, where the table knows this GPU.
    for (const std::string& key : knownGpuKeys()) {
        std::string upper = key;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        // A whole word: "L4" must not match "L40S".
        const std::size_t at = (d.name + " ").find(" " + upper + " ");
        if (at == std::string::npos) continue;
        if (const std::optional<DeviceLimits> known = knownGpuLimits(key, dtype)) {
            l.computeTflops = known->computeTflops;
            l.computeSource = "spec sheet of the " + known->name + " (not measured)";
        }
        break;
    }
    return l;
}

Result<ResourceReport> reportFor(Backend& backend, const TileConfiguration& configuration) {
    const PipelineSpec* pipeline = findPipeline(configuration.pipeline);
    if (!pipeline)
        return Status(ErrorCode::InvalidArgument, "no pipeline named " + configuration.pipeline);
    TileConfiguration complete = configuration;
    complete.problem = withDefaults(*pipeline, configuration.problem);
    if (Status s = checkProblem(*pipeline, complete.problem); !s) return s;
    ResourceReport report = modelReport(complete, liveLimits(backend, complete.problem.dtype));
    addBackendRefusal(backend, report);
    if (report.refusal || backend.kind() != BackendKind::Cuda) return report;
    const VariantSpec* variant = findVariant(*pipeline, complete.variant);
    const RunRequest request = planningRequest(complete);
    std::vector<KernelSpec> kernels;
    Result<std::vector<KernelLaunch>> launches = planLaunches(backend, *variant, request, kernels);
    if (!launches) {
        report.refusal = refusalFromStatus(launches.status());
        return report;
    }
    if (launches->empty()) return report;
    const KernelResources resources = backend.resources(launches->front());
    // The default tiles run the precompiled, hand-tuned kernel: its own shared memory and stages.
    if (resources.known && resources.origin == "precompiled") {
        report.launch.kernelName =
            variant->tiles ? variant->tiles->precompiledKernel : report.launch.kernelName;
        report.launch.dynamicSharedBytes = static_cast<std::uint64_t>(resources.dynamicSharedBytes);
        report.launch.pipelineStages = 0;
    }
    return withCompiled(report, compiledFrom(resources));
}

Result<TileRunResult> runConfiguration(Backend& backend, const TileConfiguration& configuration,
                                       const RunSettings& settings, RunObserver& observer) {
    Result<ResourceReport> report = reportFor(backend, configuration);
    if (!report) return report.status();
    if (report->refusal)
        return Status(ErrorCode::InvalidArgument, "refused: " + report->refusal->reason);
    Result<RunReport> run =
        runPipeline(backend, requestFor(report->configuration, settings, Target{}), observer);
    if (!run) return run.status();
    if (run->variants.empty()) return Status(ErrorCode::DeviceError, "the run measured no variant");
    TileRunResult result;
    result.cell = cellFrom(*report, run->variants.front());
    result.run = std::move(*run);
    return result;
}

Result<TileSweep> runTileSweep(Backend& backend, const TileSweepRequest& request,
                               TileObserver& observer) {
    const Clock::time_point start = Clock::now();
    if (Status s = checkRequest(request); !s) return s;
    const PipelineSpec& pipeline = *findPipeline(request.base.pipeline);
    TileSweep sweep;
    sweep.request = request;
    sweep.request.base.problem = withDefaults(pipeline, request.base.problem);
    sweep.created = utcNow();
    const DeviceInfo device = backend.describe();
    sweep.deviceName = device.name;
    sweep.driverVersion = device.driverVersion;
    sweep.runtimeVersion = device.runtimeVersion;
    sweep.limits = liveLimits(backend, sweep.request.base.problem.dtype);
    const AlwaysCompiledTiles compiledTiles(*findVariant(pipeline, request.base.variant));
    CancelOnlyObserver<TileObserver> cancelOnly(observer);

    // The other variants on the same scale, and the roofs of this run.
    observer.progress(0.0, "timing the reference variants", -1.0);
    if (request.references) {
        std::vector<std::string> others;
        for (const VariantSpec* variant : runnableVariants(pipeline))
            if (variant->name != request.base.variant) others.push_back(variant->name);
        Result<RunReport> references =
            measureReferences(backend, sweep.request, others, cancelOnly);
        if (!references) {
            if (references.status().code() == ErrorCode::Cancelled) {
                sweep.cancelled = true;
                return sweep;
            }
            return references.status();
        }
        for (const VariantResult& result : references->variants) {
            ReferenceTiming reference;
            reference.variant = result.variant;
            if (const VariantSpec* spec = findVariant(pipeline, result.variant))
                reference.title = spec->title;
            reference.time = spreadOf(result.repeatTimesMs);
            reference.modelBytes = result.modelBytesRead + result.modelBytesWritten;
            reference.modelFlops = result.modelFlops;
            reference.checkOk = result.check.ok;
            sweep.references.push_back(std::move(reference));
        }
        if (references->roofline.gbps() > 0) {
            sweep.limits.copyBandwidthGBps = references->roofline.gbps();
            sweep.limits.copyBandwidthSource = "measured copy in this run";
        }
        if (references->computeRoof && references->computeRoof->tflops() > 0) {
            sweep.limits.computeTflops = references->computeRoof->tflops();
            sweep.limits.computeSource = references->computeRoof->description;
        }
    }

    // Every configuration's model report and refusal.
    const std::vector<TileConfiguration> configurations = configurationsOf(sweep.request);
    std::vector<ResourceReport> reports;
    for (const TileConfiguration& configuration : configurations) {
        reports.push_back(modelReport(configuration, sweep.limits));
        addBackendRefusal(backend, reports.back());
    }

    // Compile what runs, in parallel through the module cache, before timing anything.
    const Clock::time_point compileStart = Clock::now();
    std::vector<CompileRequest> compileRequests;
    std::vector<std::size_t> compiledFor;  // the configuration of each compile request
    const VariantSpec& variant = *findVariant(pipeline, request.base.variant);
    for (std::size_t index = 0; index < reports.size(); ++index) {
        const ResourceReport& report = reports[index];
        if (report.refusal) continue;
        const RunRequest run = planningRequest(report.configuration);
        std::vector<KernelSpec> kernels = variant.kernelsFor(run.problem);
        for (std::size_t k = 0; k < kernels.size(); ++k) {
            const Result<KernelLaunch> launch =
                kernelLaunchOf(backend, variant.name, run.problem, kernels, k);
            if (!launch) continue;
            for (CompileRequest& compile : backend.compileRequests(*launch)) {
                compileRequests.push_back(std::move(compile));
                compiledFor.push_back(index);
            }
        }
    }
    sweep.compilerVersion = backend.kind() == BackendKind::Cuda
                                ? "nothing compiled at run time"
                                : "none (the CPU backend runs precompiled code)";
    // Where each configuration's module came from in this sweep (the loads that follow find it
    // in memory).
    std::vector<std::optional<std::pair<std::string, double>>> origins(configurations.size());
    if (!compileRequests.empty()) {
        if (Result<ModuleCompiler*> compiler = runtimeCompiler()) {
            sweep.compilerVersion = (*compiler)->version();
            const int threads = std::max(1u, std::thread::hardware_concurrency());
            const auto results = moduleCache().getAll(
                **compiler, compileRequests, threads, [&](std::size_t done, std::size_t total) {
                    observer.progress(0.3 * static_cast<double>(done) / static_cast<double>(total),
                                      "compiling " + std::to_string(done) + " of " +
                                          std::to_string(total) + " configurations",
                                      -1.0);
                    return !observer.cancelled();
                });
            for (std::size_t k = 0; k < results.size(); ++k) {
                const auto& result = results[k];
                if (!result) continue;
                origins[compiledFor[k]] = std::make_pair(result->origin, result->compileMs);
                if (result->origin == "nvrtc")
                    ++sweep.modulesCompiled;
                else
                    ++sweep.modulesCached;
            }
        } else {
            sweep.compilerVersion = compiler.status().message();
        }
    }
    sweep.compileWallMs = secondsSince(compileStart) * 1e3;

    // Time each configuration.
    const Clock::time_point timingStart = Clock::now();
    std::size_t timed = 0;
    const std::size_t toTime = static_cast<std::size_t>(
        std::count_if(reports.begin(), reports.end(), [](const auto& r) { return !r.refusal; }));
    for (std::size_t index = 0; index < configurations.size(); ++index) {
        if (observer.cancelled()) {
            sweep.cancelled = true;
            break;
        }
        TileCell cell;
        cell.report = reports[index];
        if (!cell.report.refusal) {
            const double eta = timed > 0 ? secondsSince(timingStart) / static_cast<double>(timed) *
                                               static_cast<double>(toTime - timed)
                                         : -1.0;
            observer.progress(0.3 + 0.7 * static_cast<double>(timed) /
                                        static_cast<double>(std::max<std::size_t>(toTime, 1)),
                              "timing " + tilesText(configurations[index]), eta);
            RunRequest run = cellRunRequest(request, configurations[index]);
            run.roofs = false;  // measured once, with the references
            Result<RunReport> result = runPipeline(backend, run, cancelOnly);
            ++timed;
            if (!result && result.status().code() == ErrorCode::Cancelled) {
                sweep.cancelled = true;
                break;
            }
            if (!result) {
                const std::string message = result.status().message();
                if (message.find("cannot run here") != std::string::npos)
                    cell.report.refusal = refusalFromStatus(result.status());
                else
                    cell.error = message;
            } else if (!result->variants.empty()) {
                cell = cellFrom(cell.report, result->variants.front());
                if (origins[index] && cell.report.compiled.known) {
                    cell.report.compiled.origin = origins[index]->first;
                    cell.report.compiled.compileMs = origins[index]->second;
                }
            }
        }
        sweep.cells.push_back(std::move(cell));
        describeCells(sweep);
        observer.cellMeasured(sweep.cells.back(), index);
    }
    describeCells(sweep);
    sweep.totalWallMs = secondsSince(start) * 1e3;
    observer.progress(1.0, sweep.cancelled ? "cancelled" : "done", 0.0);
    return sweep;
}

}  // namespace fusescope::tiles
