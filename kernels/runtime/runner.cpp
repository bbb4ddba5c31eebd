#include "runtime/runner.h"

#include <algorithm>
#include <map>

#include "pipelines/pass_model.h"
#include "pipelines/registry.h"
#include "runtime/host_inputs.h"

namespace fusescope {
namespace {

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (values.size() % 2 == 1) return *middle;
    const double upper = *middle;
    const double lower = *std::max_element(values.begin(), middle);
    return (lower + upper) / 2.0;
}

Status cancelledStatus() {
    return Status(ErrorCode::Cancelled, "cancelled by the user");
}

class VariantRunner {
  public:
    VariantRunner(Backend& backend, AllocationTracker& tracker, const RunRequest& request,
                  const PipelineSpec& pipeline, const HostInputs& inputs, RunObserver& observer)
        : backend_(backend),
          tracker_(tracker),
          request_(request),
          pipeline_(pipeline),
          inputs_(inputs),
          observer_(observer) {}

    Result<VariantResult> run(const VariantSpec& variant, double progressFrom, double progressTo) {
        const std::uint64_t n = request_.n;
        const std::uint64_t arrayBytes = n * kElementBytes;
        const std::size_t firstEvent = tracker_.events().size();
        tracker_.resetPeak();

        VariantResult result;
        result.pipeline = pipeline_.name;
        result.variant = variant.name;
        result.n = n;
        result.vectorWidth = request_.vectorWidth;
        result.backend = backend_.kind();
        result.timingSource = backend_.kind() == BackendKind::Cpu ? MeasurementSource::CpuBackend
                                                                  : MeasurementSource::TimingModel;
        const Traffic traffic = modelVariantTraffic(variant, n);
        result.passes = traffic.passes;
        result.modelBytesRead = traffic.bytesRead;
        result.modelBytesWritten = traffic.bytesWritten;

        observer_.progress(progressFrom, "allocating " + variant.name);
        Result<PreparedVariant> prepared =
            prepareVariant(backend_, tracker_, variant, request_, inputs_);
        if (!prepared) return prepared.status();
        const std::vector<KernelLaunch>& launches = prepared->launches;
        const TrackedBuffer* output = &prepared->buffers.at(prepared->outputName);
        const std::vector<const float*>& inputPointers = prepared->hostInputs;

        // One checked run first: the output was poisoned, so unwritten elements show.
        observer_.progress(progressFrom, "checking " + variant.name);
        if (Result<std::vector<double>> first = backend_.timeLaunches(launches); !first)
            return first.status();
        std::vector<float> hostOutput(n);
        if (Status s = backend_.download(hostOutput.data(), output->data(), arrayBytes); !s)
            return s;
        result.check = checkOutput(pipeline_, inputPointers.data(), hostOutput.data(), n);
        hostOutput = {};

        const int total = request_.warmup + request_.repeats;
        std::vector<std::vector<double>> perKernel(launches.size());
        for (int r = 0; r < total; ++r) {
            if (observer_.cancelled()) return cancelledStatus();
            Result<std::vector<double>> times = backend_.timeLaunches(launches);
            if (!times) return times.status();
            if (r < request_.warmup) {
                observer_.progress(progressFrom + (progressTo - progressFrom) * (r + 1) / total,
                                   "warming up " + variant.name);
                continue;
            }
            double sum = 0.0;
            for (std::size_t k = 0; k < launches.size(); ++k) {
                perKernel[k].push_back((*times)[k]);
                sum += (*times)[k];
            }
            result.repeatTimesMs.push_back(sum);
            observer_.progress(progressFrom + (progressTo - progressFrom) * (r + 1) / total,
                               "timing " + variant.name + ": repeat " +
                                   std::to_string(r + 1 - request_.warmup) + " of " +
                                   std::to_string(request_.repeats));
        }
        result.timeMs = median(result.repeatTimesMs);

        for (std::size_t k = 0; k < variant.kernels.size(); ++k) {
            const KernelSpec& spec = variant.kernels[k];
            KernelResult kernel;
            kernel.name = spec.name;
            kernel.id = spec.id;
            kernel.timeMs = median(perKernel[k]);
            const Traffic kernelTraffic = modelKernelTraffic(spec, n);
            kernel.modelBytesRead = kernelTraffic.bytesRead;
            kernel.modelBytesWritten = kernelTraffic.bytesWritten;
            kernel.resources = backend_.resources(spec.id, request_.vectorWidth, n);
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
    Backend& backend_;
    AllocationTracker& tracker_;
    const RunRequest& request_;
    const PipelineSpec& pipeline_;
    const HostInputs& inputs_;
    RunObserver& observer_;
};

Result<RooflineResult> measureRoofline(Backend& backend, AllocationTracker& tracker,
                                       const RunRequest& request, const HostInputs& inputs,
                                       RunObserver& observer) {
    const std::uint64_t bytes = request.n * kElementBytes;
    Result<TrackedBuffer> source = tracker.allocate("roofline source", bytes);
    if (!source) return source.status();
    Result<TrackedBuffer> destination = tracker.allocate("roofline destination", bytes);
    if (!destination) return destination.status();
    if (Status s = backend.upload(source->data(), inputs.values.front().data(), bytes); !s)
        return s;
    std::vector<double> times;
    for (int r = 0; r < request.warmup + request.repeats; ++r) {
        if (observer.cancelled()) return cancelledStatus();
        Result<double> time = backend.timeCopy(destination->data(), source->data(), bytes);
        if (!time) return time.status();
        if (r >= request.warmup) times.push_back(*time);
    }
    if (Status s = destination->reset(); !s) return s;
    if (Status s = source->reset(); !s) return s;
    if (Status s = backend.settle(); !s) return s;
    RooflineResult roofline;
    roofline.timeMs = median(times);
    roofline.bytesMoved = 2 * bytes;
    return roofline;
}

}  // namespace

const std::vector<float>* HostInputs::find(const std::string& name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return &values[i];
    return nullptr;
}

std::vector<const VariantSpec*> selectedVariants(const PipelineSpec& pipeline,
                                                 const RunRequest& request) {
    std::vector<const VariantSpec*> selected;
    if (request.variants.empty()) {
        for (const auto& variant : pipeline.variants) selected.push_back(&variant);
        return selected;
    }
    for (const auto& name : request.variants)
        if (const VariantSpec* variant = findVariant(pipeline, name)) selected.push_back(variant);
    return selected;
}

HostInputs makeHostInputs(const std::vector<const VariantSpec*>& variants, std::uint64_t n,
                          std::uint32_t seed) {
    HostInputs inputs;
    for (const VariantSpec* variant : variants)
        for (const auto& buffer : variant->buffers) {
            if (buffer.role != BufferRole::Input || inputs.find(buffer.name)) continue;
            inputs.names.push_back(buffer.name);
            inputs.values.emplace_back(n);
            fillUniform(inputs.values.back().data(), n, seed,
                        static_cast<std::uint32_t>(inputs.names.size()), buffer.low, buffer.high);
        }
    return inputs;
}

Status PreparedVariant::release(const VariantSpec& variant) {
    for (auto it = variant.buffers.rbegin(); it != variant.buffers.rend(); ++it) {
        const auto buffer = buffers.find(it->name);
        if (buffer == buffers.end()) continue;
        if (Status s = buffer->second.reset(); !s) return s;
    }
    return Status::ok();
}

Result<PreparedVariant> prepareVariant(Backend& backend, AllocationTracker& tracker,
                                       const VariantSpec& variant, const RunRequest& request,
                                       const HostInputs& inputs,
                                       const DeviceInputSources* deviceSources) {
    const std::uint64_t n = request.n;
    const std::uint64_t arrayBytes = n * kElementBytes;
    PreparedVariant prepared;
    for (const auto& spec : variant.buffers) {
        Result<TrackedBuffer> buffer = tracker.allocate(spec.name, arrayBytes);
        if (!buffer) return buffer.status();
        prepared.buffers.emplace(spec.name, std::move(*buffer));
    }
    for (const auto& spec : variant.buffers) {
        TrackedBuffer& buffer = prepared.buffers.at(spec.name);
        if (spec.role == BufferRole::Input) {
            const std::vector<float>* host = inputs.find(spec.name);
            if (!host)
                return Status(ErrorCode::InvalidArgument,
                              "no host values for input '" + spec.name + "'");
            const auto source = deviceSources ? deviceSources->find(spec.name)
                                              : DeviceInputSources::const_iterator{};
            const Status filled = deviceSources && source != deviceSources->end()
                                      ? backend.copy(buffer.data(), source->second, arrayBytes)
                                      : backend.upload(buffer.data(), host->data(), arrayBytes);
            if (!filled) return filled;
            prepared.hostInputs.push_back(host->data());
        } else {
            if (Status s = backend.fill(buffer.data(), kPoisonByte, arrayBytes); !s) return s;
            if (spec.role == BufferRole::Output) prepared.outputName = spec.name;
        }
    }
    if (prepared.outputName.empty())
        return Status(ErrorCode::InvalidArgument, "variant '" + variant.name + "' has no output");
    for (const auto& kernel : variant.kernels) {
        KernelLaunch launch;
        launch.id = kernel.id;
        launch.n = n;
        launch.vectorWidth = request.vectorWidth;
        for (std::size_t a = 0; a < kernel.args.size(); ++a)
            launch.args[a] = prepared.buffers.at(kernel.args[a]).data();
        prepared.launches.push_back(launch);
    }
    return prepared;
}

double VariantResult::effectiveGBps() const {
    return timeMs > 0 ? (modelBytesRead + modelBytesWritten) / (timeMs * 1e6) : 0.0;
}

std::uint64_t maxElementsFor(const RunRequest& request, const DeviceInfo& device) {
    const PipelineSpec* pipeline = findPipeline(request.pipeline);
    if (!pipeline) return 0;
    std::uint64_t arrays = 2;  // the roofline's source and destination
    for (const VariantSpec* variant : selectedVariants(*pipeline, request))
        arrays = std::max<std::uint64_t>(arrays, variant->buffers.size());
    // Keep a margin for the runtime's own allocations.
    const double usable = static_cast<double>(device.freeMemoryBytes) * 0.9;
    return static_cast<std::uint64_t>(usable / static_cast<double>(arrays * kElementBytes));
}

Status validateRequest(const RunRequest& request, const DeviceInfo& device) {
    const PipelineSpec* pipeline = findPipeline(request.pipeline);
    if (!pipeline)
        return Status(ErrorCode::InvalidArgument, "unknown pipeline '" + request.pipeline + "'");
    for (const auto& name : request.variants)
        if (!findVariant(*pipeline, name))
            return Status(ErrorCode::InvalidArgument,
                          "unknown variant '" + name + "' of pipeline '" + pipeline->name + "'");
    if (request.n == 0) return Status(ErrorCode::InvalidArgument, "N must be at least 1");
    if (!isSupportedVectorWidth(request.vectorWidth))
        return Status(ErrorCode::InvalidArgument, "vector width " +
                                                      std::to_string(request.vectorWidth) +
                                                      " is not " + supportedVectorWidthsText());
    if (request.repeats < 1 || request.repeats > kMaxRepeats)
        return Status(ErrorCode::InvalidArgument, "repeats must be 1 to " +
                                                      std::to_string(kMaxRepeats) + ", not " +
                                                      std::to_string(request.repeats));
    if (request.warmup < 0 || request.warmup > kMaxWarmup)
        return Status(ErrorCode::InvalidArgument, "warm-up runs must be 0 to " +
                                                      std::to_string(kMaxWarmup) + ", not " +
                                                      std::to_string(request.warmup));
    if (request.cpuThreads < 0)
        return Status(ErrorCode::InvalidArgument, "the CPU thread count must not be negative");
    const std::uint64_t limit = maxElementsFor(request, device);
    if (request.n > limit)
        return Status(ErrorCode::OutOfMemory,
                      "N = " + std::to_string(request.n) + " does not fit on " + device.name +
                          ": at most " + std::to_string(limit) + " elements with the free memory");
    return Status::ok();
}

RunDefaults runDefaultsFor(BackendKind backend) {
    if (backend == BackendKind::Cpu) return RunDefaults{5, 1};
    return RunDefaults{20, 3};
}

Result<RunReport> runPipeline(Backend& backend, const RunRequest& request, RunObserver& observer) {
    RunReport report;
    backend.useHostThreads(request.cpuThreads);
    report.device = backend.describe();
    if (Status s = validateRequest(request, report.device); !s) return s;
    const PipelineSpec& pipeline = *findPipeline(request.pipeline);
    const std::vector<const VariantSpec*> variants = selectedVariants(pipeline, request);

    observer.progress(0.0, "generating inputs");
    const HostInputs inputs = makeHostInputs(variants, request.n, request.seed);
    AllocationTracker tracker(backend);

    observer.progress(0.0, "measuring the copy roofline");
    Result<RooflineResult> roofline = measureRoofline(backend, tracker, request, inputs, observer);
    if (!roofline) return roofline.status();
    report.roofline = *roofline;

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
