#include "measure/measured_run.h"

#include <algorithm>
#include <chrono>
#include <mutex>

#include "measure/cache_sweep.h"
#include "measure/timeline.h"
#include "pipelines/registry.h"

namespace fusescope {
namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// The selected variants of the request, in the order runPipeline ran them.
std::vector<const VariantSpec*> variantsOf(const RunRequest& request) {
    const PipelineSpec* pipeline = findPipeline(request.pipeline);
    return pipeline ? selectedVariants(*pipeline, request) : std::vector<const VariantSpec*>{};
}

Status checkReportMatches(const RunReport& report,
                          const std::vector<const VariantSpec*>& variants) {
    if (report.variants.size() != variants.size())
        return Status(ErrorCode::InvalidArgument, "the report does not match the request");
    for (std::size_t v = 0; v < variants.size(); ++v)
        if (report.variants[v].variant != variants[v]->name ||
            report.variants[v].kernels.size() !=
                variants[v]->kernelsFor(report.variants[v].problem).size())
            return Status(ErrorCode::InvalidArgument, "the report does not match the request");
    return Status::ok();
}

// Batches wait here until the runner's thread takes them. The CUPTI provider delivers them on
// that thread when polled; a provider may also deliver from a thread of its own (the tests' fake).
class BatchQueue {
  public:
    void push(SamplingBatch&& batch) {
        std::lock_guard lock(mutex_);
        batches_.push_back(std::move(batch));
    }
    std::vector<SamplingBatch> take() {
        std::lock_guard lock(mutex_);
        std::vector<SamplingBatch> taken;
        taken.swap(batches_);
        return taken;
    }

  private:
    std::mutex mutex_;
    std::vector<SamplingBatch> batches_;
};

// Collects the sampling run on the runner's thread: attributes samples and spans to the variant
// whose part of the run they fall in, and streams them to the observer as they come.
class SamplingCollector {
  public:
    SamplingCollector(std::int64_t originNs, RunReport& report, RunObserver& observer)
        : builder_(originNs), report_(report), observer_(observer) {}

    TimelineBuilder& builder() { return builder_; }

    void beginVariant(std::size_t index, std::int64_t absoluteNs) {
        starts_.push_back({builder_.rebase(absoluteNs), index});
    }

    void deliver(std::vector<SamplingBatch> batches) {
        for (SamplingBatch& batch : batches) {
            std::vector<BandwidthSample> samples;
            for (const BandwidthSample& sample : batch.samples)
                samples.push_back(builder_.rebase(sample));
            std::vector<TimelineSpan> spans = builder_.add(batch.activity);
            distribute(std::move(samples), std::move(spans));
        }
    }

    void finish(std::int64_t sessionEndNs) {
        distribute({}, builder_.finish(sessionEndNs));
        for (VariantResult& variant : report_.variants) {
            std::stable_sort(
                variant.timeline.begin(), variant.timeline.end(),
                [](const TimelineSpan& a, const TimelineSpan& b) { return a.startNs < b.startNs; });
            std::stable_sort(variant.samples.begin(), variant.samples.end(),
                             [](const BandwidthSample& a, const BandwidthSample& b) {
                                 return a.startNs < b.startNs;
                             });
        }
    }

  private:
    struct VariantStart {
        std::int64_t startNs;
        std::size_t index;
    };

    // The variant whose part of the run holds `timeNs`; before the first: the first.
    std::size_t variantAt(std::int64_t timeNs) const {
        std::size_t index = starts_.empty() ? 0 : starts_.front().index;
        for (const VariantStart& start : starts_)
            if (start.startNs <= timeNs) index = start.index;
        return index;
    }

    void distribute(std::vector<BandwidthSample> samples, std::vector<TimelineSpan> spans) {
        std::map<std::size_t, std::pair<std::vector<BandwidthSample>, std::vector<TimelineSpan>>>
            byVariant;
        for (BandwidthSample& sample : samples)
            byVariant[variantAt(sample.startNs)].first.push_back(sample);
        for (TimelineSpan& span : spans)
            byVariant[variantAt(span.startNs)].second.push_back(std::move(span));
        for (auto& [index, parts] : byVariant) {
            if (index >= report_.variants.size()) continue;
            VariantResult& variant = report_.variants[index];
            observer_.samplesArrived(variant.variant, parts.first, parts.second);
            variant.samples.insert(variant.samples.end(), parts.first.begin(), parts.first.end());
            variant.timeline.insert(variant.timeline.end(), parts.second.begin(),
                                    parts.second.end());
        }
    }

    TimelineBuilder builder_;
    RunReport& report_;
    RunObserver& observer_;
    std::vector<VariantStart> starts_;
};

void clearSampling(RunReport& report) {
    for (VariantResult& variant : report.variants) {
        variant.samples.clear();
        variant.timeline.clear();
        variant.samplesSource.reset();
    }
}

void clearCounters(RunReport& report) {
    for (VariantResult& variant : report.variants) {
        for (KernelResult& kernel : variant.kernels) kernel.counters.reset();
        variant.countersSource.reset();
    }
}

std::string withAdvice(const CounterCapability& capability) {
    // A reason built from a CUPTI error may carry the advice already: say it once.
    const bool adviceGiven = capability.adminAdvice.empty() ||
                             capability.reason.find(capability.adminAdvice) != std::string::npos;
    return adviceGiven ? capability.reason : capability.reason + " " + capability.adminAdvice;
}

}  // namespace

Status validateMeasureOptions(const MeasureOptions& options) {
    if (options.counters)
        if (Status s = validateCountedLaunches(options.countedLaunches); !s) return s;
    if (options.sampling) {
        if (Status s = validateSamplingInterval(options.samplingIntervalNs); !s) return s;
        if (options.samplingRepeats < 1)
            return Status(ErrorCode::InvalidArgument, "sampling repeats must be at least 1");
    }
    return Status::ok();
}

Status addCounterRun(Backend& backend, CounterProvider& provider, const RunRequest& request,
                     int countedLaunches, const HostBuffers& inputs, RunReport& report,
                     RunObserver& observer) {
    const std::vector<const VariantSpec*> variants = variantsOf(request);
    if (Status s = checkReportMatches(report, variants); !s) return s;
    if (Status s = validateCountedLaunches(countedLaunches); !s) return s;
    const auto times = static_cast<std::size_t>(countedLaunches);
    const auto started = std::chrono::steady_clock::now();
    AllocationTracker tracker(backend);
    Result<CacheSweep> sweep = CacheSweep::create(backend, tracker);
    if (!sweep) return sweep.status();
    for (std::size_t v = 0; v < variants.size(); ++v) {
        if (observer.cancelled()) return cancelledStatus();
        observer.progress(static_cast<double>(v) / static_cast<double>(variants.size()),
                          "counting " + variants[v]->name);
        Result<PreparedVariant> prepared =
            prepareVariant(backend, tracker, *variants[v], request, inputs);
        if (!prepared) return prepared.status();
        const std::vector<KernelLaunch>& launches = prepared->launches;
        // The variant's launches in order, `times` rounds of them: count i is launch i % size.
        Result<std::vector<KernelCounters>> counters = provider.measureLaunches(
            launches.size() * times,
            [&](std::size_t count) {
                return backend
                    .timeLaunches(std::span(launches).subspan(count % launches.size(), 1),
                                  TimedStart::AsEnqueued)
                    .status();
            },
            // Before every pass of every launch: a cancel waits for one launch at most.
            [&] { return observer.cancelled() ? cancelledStatus() : sweep->run(); });
        if (Status s = prepared->release(*variants[v]); !s) return s;
        if (Status s = backend.settle(); !s) return s;
        if (!counters) return counters.status();
        VariantResult& result = report.variants[v];
        if (counters->size() != launches.size() * times || result.kernels.size() != launches.size())
            return Status(ErrorCode::DeviceError,
                          "the counter run counted " + std::to_string(counters->size()) +
                              " launches of " + variants[v]->name + ", not " +
                              std::to_string(launches.size() * times));
        for (std::size_t k = 0; k < result.kernels.size(); ++k) {
            std::vector<KernelCounters> rounds;
            for (std::size_t round = 0; round < times; ++round)
                rounds.push_back((*counters)[round * launches.size() + k]);
            result.kernels[k].counters = combineCountedLaunches(rounds);
        }
        result.countersSource = MeasurementSource::Counters;
    }
    report.counterRunWallMs = millisecondsSince(started);
    return Status::ok();
}

Status addSamplingRun(Backend& backend, CounterProvider& provider, const RunRequest& request,
                      const MeasureOptions& options, const HostBuffers& inputs, RunReport& report,
                      RunObserver& observer) {
    const std::vector<const VariantSpec*> variants = variantsOf(request);
    if (Status s = checkReportMatches(report, variants); !s) return s;
    if (Status s = validateMeasureOptions(options); !s) return s;
    const auto started = std::chrono::steady_clock::now();
    // The inputs go to the device once, before sampling starts: each variant then fills its own
    // inputs with a device copy (~0.5 ms at 2^28) instead of an upload (~0.3 s), so the timeline
    // shows kernels and allocations, not idle uploads. Without room for them, it uploads.
    AllocationTracker sourceTracker(backend);
    std::vector<TrackedBuffer> sourceBuffers;
    DeviceInputSources sources;
    for (std::size_t i = 0; i < inputs.names.size(); ++i) {
        const std::uint64_t bytes = inputs.values[i].size();
        Result<TrackedBuffer> buffer = sourceTracker.allocate(inputs.names[i] + " (source)", bytes);
        if (!buffer) break;
        if (Status s = backend.upload(buffer->data(), inputs.values[i].data(), bytes); !s) return s;
        sources.emplace(inputs.names[i], buffer->data());
        sourceBuffers.push_back(std::move(*buffer));
    }
    if (sources.size() != inputs.names.size()) {
        sources.clear();
        sourceBuffers.clear();  // not all fit: free the rest too and upload as before
    }
    if (Status s = backend.settle(); !s) return s;

    AllocationTracker tracker(backend);
    BatchQueue queue;
    if (Status s = provider.startSampling(
            options.samplingIntervalNs,
            [&queue](SamplingBatch&& batch) { queue.push(std::move(batch)); });
        !s)
        return s;
    SamplingCollector collector(provider.nowNs(), report, observer);

    // Runs the variants back to back; on any failure sampling is stopped before returning.
    auto runVariants = [&]() -> Status {
        for (std::size_t v = 0; v < variants.size(); ++v) {
            const VariantSpec& variant = *variants[v];
            observer.progress(static_cast<double>(v) / static_cast<double>(variants.size()),
                              "sampling " + variant.name);
            collector.beginVariant(v, provider.nowNs());
            Result<PreparedVariant> prepared = prepareVariant(
                backend, tracker, variant, request, inputs, sources.empty() ? nullptr : &sources);
            if (!prepared) return prepared.status();
            if (Status s = provider.pollSampling(); !s) return s;
            for (const auto& [name, buffer] : prepared->buffers)
                collector.builder().nameBuffer(reinterpret_cast<std::uint64_t>(buffer.data()),
                                               name);
            for (int r = 0; r < options.samplingRepeats; ++r) {
                if (observer.cancelled()) return cancelledStatus();
                if (Result<std::vector<double>> t =
                        backend.timeLaunches(prepared->launches, TimedStart::AsEnqueued);
                    !t)
                    return t.status();
                if (Status s = provider.pollSampling(); !s) return s;
                collector.deliver(queue.take());
            }
            if (Status s = prepared->release(variant); !s) return s;
            // Settling shows the write-back that follows the frees inside this variant's part.
            if (Status s = backend.settle(); !s) return s;
            if (Status s = provider.pollSampling(); !s) return s;
            collector.deliver(queue.take());
        }
        return Status::ok();
    };
    const Status ran = runVariants();
    Result<SamplingStats> stats = provider.stopSampling();
    const std::int64_t endNs = provider.nowNs();
    collector.deliver(queue.take());
    collector.finish(endNs);
    if (!ran) return ran;
    if (!stats) return stats.status();
    for (VariantResult& variant : report.variants)
        variant.samplesSource = MeasurementSource::Counters;
    report.samplingRunWallMs = millisecondsSince(started);
    report.samplesDecoded = stats->samples;
    report.hostCpuUsPerSample =
        stats->samples > 0 ? stats->decodeCpuSeconds * 1e6 / static_cast<double>(stats->samples)
                           : 0.0;
    if (stats->bufferOverflows > 0 || stats->droppedRecords > 0)
        report.counterStatus =
            "Some samples or records were lost (" + std::to_string(stats->bufferOverflows) +
            " sample buffer overflows, " + std::to_string(stats->droppedRecords) +
            " activity records dropped); the timeline has gaps.";
    return Status::ok();
}

Result<RunReport> runMeasured(Backend& backend, CounterProvider& provider, const RunRequest& given,
                              const MeasureOptions& options, RunObserver& observer) {
    RunRequest request = completedRequest(given);
    if (Status s = validateMeasureOptions(options); !s) return s;
    Result<RunReport> timed = runPipeline(backend, request, observer);
    if (!timed) return timed;
    RunReport report = std::move(*timed);
    if (!options.counters && !options.sampling) return report;
    // The counter and sampling runs measure the variants the timed run ran.
    if (!report.variantsNotRun.empty()) {
        request.variants.clear();
        for (const VariantResult& run : report.variants) request.variants.push_back(run.variant);
    }

    if (backend.kind() != BackendKind::Cuda) {
        report.counterStatus = refusalReason(CounterRefusal::NeedsCudaBackend, "");
        return report;
    }
    const CounterCapability capability = provider.capability();
    if (!capability.available) {
        report.counterStatus = withAdvice(capability);
        return report;
    }
    const CancelTokenInUse cancelInUse(backend, observer);
    // Generated once for both runs: at 2^28 elements that takes seconds.
    const HostBuffers inputs =
        makeHostInputs(*findPipeline(request.pipeline), variantsOf(request), request.problem,
                       request.settings.seed, cancelToken(observer));
    if (observer.cancelled()) return cancelledStatus();
    if (options.counters) {
        if (Status s = addCounterRun(backend, provider, request, options.countedLaunches, inputs,
                                     report, observer);
            !s) {
            if (s.code() == ErrorCode::Cancelled) return s;
            clearCounters(report);  // all kernels measured or none: no half tables
            report.counterStatus = s.message();
            return report;  // said once; sampling would only be refused again
        }
    }
    if (options.sampling) {
        if (Status s =
                addSamplingRun(backend, provider, request, options, inputs, report, observer);
            !s) {
            if (s.code() == ErrorCode::Cancelled) return s;
            clearSampling(report);
            report.counterStatus = "Bandwidth over time could not be sampled: " + s.message();
        }
    }
    observer.progress(1.0, "done");
    return report;
}

}  // namespace fusescope
