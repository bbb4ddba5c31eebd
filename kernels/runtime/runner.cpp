#include "runtime/runner.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "core/median.h"
#include "pipelines/registry.h"
#include "pipelines/runtime_registry.h"
#include "runtime/kernel_launch_of.h"

namespace fusescope {
namespace {

// Fill byte of the roofline's source: the values do not matter to a copy.
constexpr unsigned char kRooflineFillByte = 0x3c;

class VariantRunner {
  public:
    VariantRunner(Backend& backend, AllocationTracker& tracker, const RunRequest& request,
                  const PipelineSpec& pipeline, const HostBuffers& inputs, RunObserver& observer)
        : backend_(backend),
          tracker_(tracker),
          request_(request),
          pipeline_(pipeline),
          inputs_(inputs),
          observer_(observer) {}

    Result<VariantResult> run(const VariantSpec& variant, double progressFrom, double progressTo) {
        const std::size_t firstEvent = tracker_.events().size();
        tracker_.resetPeak();

        VariantResult result;
        result.pipeline = pipeline_.name;
        result.variant = variant.name;
        result.problem = request_.problem;
        result.backend = backend_.kind();
        result.timingSource = backend_.kind() == BackendKind::Cpu ? MeasurementSource::CpuBackend
                                                                  : MeasurementSource::TimingModel;

        observer_.progress(progressFrom, "allocating " + variant.name);
        Result<PreparedVariant> prepared =
            prepareVariant(backend_, tracker_, variant, request_, inputs_);
        if (!prepared) return prepared.status();
        const std::vector<KernelLaunch>& launches = prepared->launches;
        const std::uint64_t outputBytes =
            findBuffer(variant, prepared->outputName)->bytes(request_.problem);

        // One checked run first: the output was poisoned, so unwritten elements show.
        observer_.progress(progressFrom, "checking " + variant.name);
        if (Result<std::vector<double>> first =
                backend_.timeLaunches(launches, TimedStart::AsEnqueued);
            !first)
            return first.status();
        {
            Result<HostBuffers> outputs = downloadOutputs(variant, *prepared);
            if (!outputs) return outputs.status();
            result.check =
                pipeline_.check(request_.problem, inputs_, *outputs, cancelToken(observer_));
            for (const BufferSpec& buffer : variant.buffers)
                if (buffer.role == BufferRole::Output)
                    result.outputElements += buffer.elements(request_.problem);
            if (observer_.cancelled()) return cancelledStatus();
        }

        const int total = request_.settings.warmup + request_.settings.repeats;
        std::vector<std::vector<double>> perKernel(launches.size());
        for (int r = 0; r < total; ++r) {
            if (observer_.cancelled()) return cancelledStatus();
            Result<std::vector<double>> times =
                backend_.timeLaunches(launches, TimedStart::AllEnqueued);
            if (!times) return times.status();
            if (r < request_.settings.warmup) {
                observer_.progress(progressFrom + (progressTo - progressFrom) * (r + 1) / total,
                                   "warming up " + variant.name);
                continue;
            }
            double sum = 0.0;
            for (std::size_t k = 0; k < launches.size(); ++k) {
                perKernel[k].push_back((*times)[k]);
                sum += (*times)[k];
            }
            // Events between kernels keep each from starting early, so a chain is also timed
            // as a framework runs it: back to back, events only around it.
            if (launches.size() > 1 && backend_.chainsCanOverlap()) {
                Result<double> chain = backend_.timeChain(launches);
                if (!chain) return chain.status();
                result.kernelsApartTimesMs.push_back(sum);
                sum = *chain;
            }
            result.repeatTimesMs.push_back(sum);
            observer_.progress(progressFrom + (progressTo - progressFrom) * (r + 1) / total,
                               "timing " + variant.name + ": repeat " +
                                   std::to_string(r + 1 - request_.settings.warmup) + " of " +
                                   std::to_string(request_.settings.repeats));
        }
        result.timeMs = median(result.repeatTimesMs);
        result.kernelsApartTimeMs =
            result.kernelsApartTimesMs.empty() ? result.timeMs : median(result.kernelsApartTimesMs);

        // A pass is one sweep over one array of the output's size (the elementwise lessons).
        result.passesCounted = pipeline_.countsPasses && outputBytes > 0;
        for (std::size_t k = 0; k < prepared->kernels.size(); ++k) {
            const KernelSpec& spec = prepared->kernels[k];
            KernelResult kernel;
            kernel.name = spec.name;
            kernel.timeMs = median(perKernel[k]);
            kernel.modelBytesRead = spec.traffic.bytesRead();
            kernel.modelBytesWritten = spec.traffic.bytesWritten();
            kernel.modelFlops = spec.traffic.flops;
            kernel.resources = backend_.resources(launches[k]);
            result.modelBytesRead += kernel.modelBytesRead;
            result.modelBytesWritten += kernel.modelBytesWritten;
            result.modelFlops += kernel.modelFlops;
            if (result.passesCounted) result.passes += spec.passes();
            result.kernels.push_back(kernel);
        }

        // Free in reverse order of allocation, then let the device settle before the next timing.
        if (Status s = prepared->release(variant); !s) return s;
        if (Status s = backend_.settle(); !s) return s;
        result.peakBytesInFlight = tracker_.peakBytes();
        result.allocations.assign(
            tracker_.events().begin() + static_cast<std::ptrdiff_t>(firstEvent),
            tracker_.events().end());
        return result;
    }

  private:
    // Every output the variant writes, copied to the host for the check.
    Result<HostBuffers> downloadOutputs(const VariantSpec& variant,
                                        const PreparedVariant& prepared) {
        HostBuffers outputs;
        for (const BufferSpec& spec : variant.buffers) {
            if (spec.role != BufferRole::Output) continue;
            const std::uint64_t bytes = spec.bytes(request_.problem);
            outputs.names.push_back(spec.name);
            outputs.values.emplace_back(bytes);
            if (Status s = backend_.download(outputs.values.back().data(),
                                             prepared.buffers.at(spec.name).data(), bytes);
                !s)
                return s;
        }
        return outputs;
    }

    Backend& backend_;
    AllocationTracker& tracker_;
    const RunRequest& request_;
    const PipelineSpec& pipeline_;
    const HostBuffers& inputs_;
    RunObserver& observer_;
};

Result<RooflineResult> measureRoofline(Backend& backend, AllocationTracker& tracker,
                                       const PipelineSpec& pipeline, const RunRequest& request,
                                       RunObserver& observer) {
    const std::uint64_t bytes = pipeline.rooflineBytes(request.problem);
    Result<TrackedBuffer> source = tracker.allocate("roofline source", bytes);
    if (!source) return source.status();
    Result<TrackedBuffer> destination = tracker.allocate("roofline destination", bytes);
    if (!destination) return destination.status();
    if (Status s = backend.fill(source->data(), kRooflineFillByte, bytes); !s) return s;
    std::vector<double> times;
    for (int r = 0; r < request.settings.warmup + request.settings.repeats; ++r) {
        if (observer.cancelled()) return cancelledStatus();
        Result<double> time = backend.timeCopy(destination->data(), source->data(), bytes);
        if (!time) return time.status();
        if (r >= request.settings.warmup) times.push_back(*time);
    }
    if (Status s = destination->reset(); !s) return s;
    if (Status s = source->reset(); !s) return s;
    if (Status s = backend.settle(); !s) return s;
    RooflineResult roofline;
    roofline.timeMs = median(times);
    roofline.bytesMoved = 2 * bytes;
    return roofline;
}

// Times the pipeline's compute roof where the backend has its code (nothing otherwise).
Result<std::optional<ComputeRoofResult>> measureComputeRoof(Backend& backend,
                                                            AllocationTracker& tracker,
                                                            const PipelineSpec& pipeline,
                                                            const RunRequest& request,
                                                            RunObserver& observer) {
    if (!pipeline.computeRoof) return std::optional<ComputeRoofResult>();
    const std::optional<ComputeRoofSpec> spec = pipeline.computeRoof(request.problem);
    if (!spec) return std::optional<ComputeRoofResult>();
    Result<KernelExecution*> execution = backend.findExecution(spec->execution);
    if (!execution) return std::optional<ComputeRoofResult>();
    std::vector<TrackedBuffer> buffers;
    KernelLaunch launch;
    launch.execution = *execution;
    launch.call.problem = &spec->problem;
    launch.call.variant = "compute_roof";
    launch.call.kernelName = "compute_roof_gemm";
    for (std::size_t k = 0; k < spec->bufferBytes.size(); ++k) {
        Result<TrackedBuffer> buffer =
            tracker.allocate("compute roof " + std::to_string(k), spec->bufferBytes[k]);
        if (!buffer) return buffer.status();
        if (Status s = backend.fill(buffer->data(), kRooflineFillByte, spec->bufferBytes[k]); !s)
            return s;
        launch.call.buffers.push_back(buffer->data());
        buffers.push_back(std::move(*buffer));
    }
    // A GEMM this size takes milliseconds and varies little: a few repeats suffice.
    const int repeats = std::clamp(request.settings.repeats, 3, 10);
    std::vector<double> times;
    for (int r = 0; r < 2 + repeats; ++r) {
        if (observer.cancelled()) return cancelledStatus();
        Result<std::vector<double>> time =
            backend.timeLaunches(std::span(&launch, 1), TimedStart::AllEnqueued);
        if (!time) return time.status();
        if (r >= 2) times.push_back(time->front());
    }
    for (auto buffer = buffers.rbegin(); buffer != buffers.rend(); ++buffer)
        if (Status s = buffer->reset(); !s) return s;
    ComputeRoofResult roof;
    roof.timeMs = median(times);
    roof.flops = spec->flops;
    roof.description = spec->description;
    return std::optional<ComputeRoofResult>(roof);
}

std::uint64_t saturatingSum(std::uint64_t a, std::uint64_t b) {
    std::uint64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::uint64_t>::max() : sum;
}

std::uint64_t variantFootprint(const VariantSpec& variant, const Problem& problem) {
    std::uint64_t bytes = 0;
    for (const auto& buffer : variant.buffers) bytes = saturatingSum(bytes, buffer.bytes(problem));
    return bytes;
}

}  // namespace

CancelToken cancelToken(const RunObserver& observer) {
    return CancelToken([&observer] { return observer.cancelled(); });
}

CancelTokenInUse::CancelTokenInUse(Backend& backend, const RunObserver& observer)
    : backend_(backend) {
    backend_.useCancelToken(cancelToken(observer));
}

CancelTokenInUse::~CancelTokenInUse() {
    backend_.useCancelToken(CancelToken());
}

std::vector<const VariantSpec*> selectedVariants(const PipelineSpec& pipeline,
                                                 const RunRequest& request) {
    if (request.variants.empty()) return runnableVariants(pipeline);
    std::vector<const VariantSpec*> selected;
    for (const auto& name : request.variants)
        if (const VariantSpec* variant = findVariant(pipeline, name)) selected.push_back(variant);
    return selected;
}

HostBuffers makeHostInputs(const PipelineSpec& pipeline,
                           const std::vector<const VariantSpec*>& variants, const Problem& problem,
                           std::uint32_t seed, const CancelToken& cancel) {
    std::vector<const BufferSpec*> inputs;
    for (const VariantSpec* variant : variants)
        for (const auto& buffer : variant->buffers) {
            if (buffer.role != BufferRole::Input) continue;
            const bool seen = std::any_of(inputs.begin(), inputs.end(), [&](const BufferSpec* b) {
                return b->name == buffer.name;
            });
            if (!seen) inputs.push_back(&buffer);
        }
    return pipeline.makeInputs(problem, inputs, seed, cancel);
}

Status PreparedVariant::release(const VariantSpec& variant) {
    for (auto it = variant.buffers.rbegin(); it != variant.buffers.rend(); ++it) {
        const auto buffer = buffers.find(it->name);
        if (buffer == buffers.end()) continue;
        if (Status s = buffer->second.reset(); !s) return s;
    }
    return Status::ok();
}

Result<std::vector<KernelLaunch>> planLaunches(Backend& backend, const VariantSpec& variant,
                                               const RunRequest& request,
                                               std::vector<KernelSpec>& kernels) {
    kernels = variant.kernelsFor(request.problem);
    std::vector<KernelLaunch> launches;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        if (kernels[k].canImplement)
            if (Status s = kernels[k].canImplement(request.problem, backend.kind()); !s)
                return Status(s.code(), variant.name + " cannot run here: " + s.message());
        Result<KernelLaunch> launch =
            kernelLaunchOf(backend, variant.name, request.problem, kernels, k);
        if (!launch) return launch.status();
        if (Status s = backend.supports(*launch); !s)
            return Status(s.code(), variant.name + " cannot run here: " + s.message());
        launches.push_back(std::move(*launch));
    }
    return launches;
}

Result<PreparedVariant> prepareVariant(Backend& backend, AllocationTracker& tracker,
                                       const VariantSpec& variant, const RunRequest& request,
                                       const HostBuffers& inputs,
                                       const DeviceInputSources* deviceSources) {
    PreparedVariant prepared;
    Result<std::vector<KernelLaunch>> launches =
        planLaunches(backend, variant, request, prepared.kernels);
    if (!launches) return launches.status();
    for (const auto& spec : variant.buffers) {
        Result<TrackedBuffer> buffer = tracker.allocate(spec.name, spec.bytes(request.problem));
        if (!buffer) return buffer.status();
        prepared.buffers.emplace(spec.name, std::move(*buffer));
    }
    const auto poisonNonInputs = [&]() -> Status {
        for (const auto& spec : variant.buffers)
            if (spec.role != BufferRole::Input)
                if (Status s = backend.fill(prepared.buffers.at(spec.name).data(), kPoisonByte,
                                            spec.bytes(request.problem));
                    !s)
                    return s;
        return Status::ok();
    };
    for (const auto& spec : variant.buffers) {
        TrackedBuffer& buffer = prepared.buffers.at(spec.name);
        const std::uint64_t bytes = spec.bytes(request.problem);
        if (spec.role == BufferRole::Input) {
            const HostBytes* host = inputs.find(spec.name);
            if (!host || host->size() != bytes)
                return Status(ErrorCode::InvalidArgument,
                              "no host values for input '" + spec.name + "'");
            const auto source = deviceSources ? deviceSources->find(spec.name)
                                              : DeviceInputSources::const_iterator{};
            const Status filled = deviceSources && source != deviceSources->end()
                                      ? backend.copy(buffer.data(), source->second, bytes)
                                      : backend.upload(buffer.data(), host->data(), bytes);
            if (!filled) return filled;
        } else if (spec.role == BufferRole::Output) {
            prepared.outputName = spec.name;
        }
    }
    if (Status s = poisonNonInputs(); !s) return s;
    if (prepared.outputName.empty())
        return Status(ErrorCode::InvalidArgument, "variant '" + variant.name + "' has no output");
    for (std::size_t k = 0; k < launches->size(); ++k) {
        KernelLaunch& launch = (*launches)[k];
        for (const auto& name : prepared.kernels[k].args) {
            const auto buffer = prepared.buffers.find(name);
            if (buffer == prepared.buffers.end())
                return Status(ErrorCode::InvalidArgument,
                              "kernel " + prepared.kernels[k].name + " names no buffer " + name);
            launch.call.buffers.push_back(buffer->second.data());
        }
    }
    // Code that chooses between its builds by timing them does so here, on these buffers; the
    // outputs are poisoned again after, so the checked run still shows what it leaves unwritten.
    bool launchedAny = false;
    for (const KernelLaunch& launch : *launches) {
        Result<bool> launched = backend.choose(launch);
        if (!launched) return launched.status();
        launchedAny = launchedAny || *launched;
    }
    if (launchedAny)
        if (Status s = poisonNonInputs(); !s) return s;
    prepared.launches = std::move(*launches);
    return prepared;
}

double VariantResult::effectiveGBps() const {
    return timeMs > 0 ? (modelBytesRead + modelBytesWritten) / (timeMs * 1e6) : 0.0;
}

double VariantResult::achievedTflops() const {
    return timeMs > 0 ? modelFlops / (timeMs * 1e9) : 0.0;
}

RunRequest completedRequest(const RunRequest& request) {
    RunRequest completed = request;
    if (const PipelineSpec* pipeline = findPipeline(request.pipeline))
        completed.problem = withDefaults(*pipeline, request.problem);
    return completed;
}

std::uint64_t footprintBytes(const RunRequest& given) {
    const RunRequest request = completedRequest(given);
    const PipelineSpec* pipeline = findPipeline(request.pipeline);
    if (!pipeline) return 0;
    const std::uint64_t roofline =
        pipeline->rooflineBytes ? pipeline->rooflineBytes(request.problem) : 0;
    std::uint64_t bytes = saturatingSum(roofline, roofline);
    if (pipeline->computeRoof)
        if (const std::optional<ComputeRoofSpec> roof = pipeline->computeRoof(request.problem)) {
            std::uint64_t roofBytes = 0;
            for (std::uint64_t b : roof->bufferBytes) roofBytes = saturatingSum(roofBytes, b);
            bytes = std::max(bytes, roofBytes);
        }
    for (const VariantSpec* variant : selectedVariants(*pipeline, request))
        bytes = std::max(bytes, variantFootprint(*variant, request.problem));
    return bytes;
}

namespace {

// Keep a margin for the runtime's own allocations.
std::uint64_t usableBytes(const DeviceInfo& device) {
    return static_cast<std::uint64_t>(static_cast<double>(device.freeMemoryBytes) * 0.9);
}

}  // namespace

std::uint64_t maxSizeFor(const RunRequest& request, const DeviceInfo& device) {
    const PipelineSpec* pipeline = findPipeline(request.pipeline);
    if (!pipeline) return 0;
    const DimensionSpec* size = pipeline->findDimension(pipeline->sizeDimension);
    if (!size) return 0;
    RunRequest probe = request;
    const auto fits = [&](std::uint64_t value) {
        probe.problem.dimensions[size->name] = value;
        return footprintBytes(probe) <= usableBytes(device);
    };
    if (!fits(size->minimum)) return 0;
    std::uint64_t low = size->minimum;  // fits
    std::uint64_t high = size->maximum;
    if (fits(high)) return high;
    while (high - low > 1) {  // low fits, high does not
        const std::uint64_t middle = low + (high - low) / 2;
        (fits(middle) ? low : high) = middle;
    }
    return low;
}

Status validateRequest(const RunRequest& given, const DeviceInfo& device) {
    const RunRequest request = completedRequest(given);
    const PipelineSpec* pipeline = findPipeline(request.pipeline);
    if (!pipeline)
        return Status(ErrorCode::InvalidArgument, "unknown pipeline '" + request.pipeline + "'");
    for (const auto& name : request.variants)
        if (!findVariant(*pipeline, name))
            return Status(ErrorCode::InvalidArgument,
                          "unknown variant '" + name + "' of pipeline '" + pipeline->name + "'");
    if (Status s = checkProblem(*pipeline, request.problem); !s) return s;
    if (request.settings.repeats < 1 || request.settings.repeats > kMaxRepeats)
        return Status(ErrorCode::InvalidArgument, "repeats must be 1 to " +
                                                      std::to_string(kMaxRepeats) + ", not " +
                                                      std::to_string(request.settings.repeats));
    if (request.settings.warmup < 0 || request.settings.warmup > kMaxWarmup)
        return Status(ErrorCode::InvalidArgument, "warm-up runs must be 0 to " +
                                                      std::to_string(kMaxWarmup) + ", not " +
                                                      std::to_string(request.settings.warmup));
    if (request.cpuThreads < 0)
        return Status(ErrorCode::InvalidArgument, "the CPU thread count must not be negative");
    const std::uint64_t needed = footprintBytes(request);
    if (needed > usableBytes(device))
        return Status(ErrorCode::OutOfMemory,
                      pipeline->sizeDimension + " = " +
                          std::to_string(request.problem.dimension(pipeline->sizeDimension)) +
                          " (" + describeProblem(*pipeline, request.problem, request.variants) +
                          ") does not fit on " + device.name + " with the free memory: at most " +
                          pipeline->sizeDimension + " = " +
                          std::to_string(maxSizeFor(request, device)) + ", the rest kept");
    return Status::ok();
}

RunSettings runDefaultsFor(BackendKind backend) {
    RunSettings defaults;  // 20 repeats after 3 warm-up runs
    if (backend == BackendKind::Cpu) {
        defaults.repeats = 5;
        defaults.warmup = 1;
    }
    return defaults;
}

RunRequest defaultRequest(const PipelineSpec& pipeline, BackendKind backend) {
    RunRequest request;
    request.pipeline = pipeline.name;
    request.problem = pipeline.defaultProblem();
    request.settings = runDefaultsFor(backend);
    return request;
}

Result<RunReport> runPipeline(Backend& backend, const RunRequest& given, RunObserver& observer) {
    const RunRequest request = completedRequest(given);
    RunReport report;
    backend.useHostThreads(request.cpuThreads);
    report.device = backend.describe();
    if (Status s = validateRequest(request, report.device); !s) return s;
    const PipelineSpec& pipeline = *findPipeline(request.pipeline);
    // Kernels, fills, copies and compilations ask the observer per block of work; the token is
    // taken back before the observer can go.
    const CancelTokenInUse cancelInUse(backend, observer);

    // Which variants have code here for this problem, before anything is allocated (code
    // compiled at run time is compiled here).
    std::vector<const VariantSpec*> variants;
    std::optional<Status> firstRefusal;
    for (const VariantSpec* variant : selectedVariants(pipeline, request)) {
        std::vector<KernelSpec> kernels;
        if (Result<std::vector<KernelLaunch>> launches =
                planLaunches(backend, *variant, request, kernels);
            !launches) {
            if (observer.cancelled()) return cancelledStatus();
            if (!firstRefusal) firstRefusal = launches.status();
            report.variantsNotRun.push_back({variant->name, launches.status().message()});
            continue;
        }
        variants.push_back(variant);
    }
    if (variants.empty() && firstRefusal) return *firstRefusal;

    observer.progress(0.0, "generating inputs");
    const HostBuffers inputs = makeHostInputs(pipeline, variants, request.problem,
                                              request.settings.seed, cancelToken(observer));
    if (observer.cancelled()) return cancelledStatus();
    AllocationTracker tracker(backend);

    if (request.roofs) {
        observer.progress(0.0, "measuring the copy roofline");
        Result<RooflineResult> roofline =
            measureRoofline(backend, tracker, pipeline, request, observer);
        if (!roofline) return roofline.status();
        report.roofline = *roofline;
        observer.progress(0.0, "measuring the compute roof");
        Result<std::optional<ComputeRoofResult>> computeRoof =
            measureComputeRoof(backend, tracker, pipeline, request, observer);
        if (!computeRoof) return computeRoof.status();
        report.computeRoof = *computeRoof;
    }

    VariantRunner runner(backend, tracker, request, pipeline, inputs, observer);
    const double step = 1.0 / static_cast<double>(variants.size());
    for (std::size_t v = 0; v < variants.size(); ++v) {
        if (observer.cancelled()) return cancelledStatus();
        Result<VariantResult> result = runner.run(*variants[v], v * step, (v + 1) * step);
        if (!result) return result.status();
        observer.variantFinished(*result);
        report.variants.push_back(std::move(*result));
    }
    report.allocations = tracker.events();
    observer.progress(1.0, "done");
    return report;
}

}  // namespace fusescope
