// The measured-run plumbing with the fake provider: counters into results, the refusal paths,
// sample streaming, timelines, costs. These test the plumbing, not the numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "gpu_like_backend.h"
#include "measure/measured_run.h"
#include "measure/timeline.h"
#include "pipelines/registry.h"
#include "support/kernel_counts.h"

using namespace fusescope;
using fusescope::testing_support::GpuLikeBackend;

namespace {

RunRequest smallRequest(std::string pipeline = "swiglu") {
    RunRequest request;
    request.pipeline = std::move(pipeline);
    request.problem.dimensions["N"] = 4099;  // not a multiple of 4
    request.settings.repeats = 2;
    request.settings.warmup = 1;
    return request;
}

KernelCounters scripted(std::size_t index) {
    const double base = 1000.0 * static_cast<double>(index + 1);
    return testing_support::counted(base, base + 1, base + 2, base + 3);
}

class StreamObserver : public RunObserver {
  public:
    void variantFinished(const VariantResult&) override { ++timedVariants; }
    void samplesArrived(std::string_view variant, std::span<const BandwidthSample> samples,
                        std::span<const TimelineSpan> spans) override {
        ++batches;
        for (const BandwidthSample& sample : samples) {
            order.push_back(sample);
            perVariant[std::string(variant)].push_back(sample);
        }
        spanCount += spans.size();
        if (cancelAfterBatches > 0 && batches >= cancelAfterBatches) cancel = true;
    }
    bool cancelled() const override { return cancel.load(); }

    int timedVariants = 0;
    int batches = 0;
    std::size_t spanCount = 0;
    std::vector<BandwidthSample> order;
    std::map<std::string, std::vector<BandwidthSample>> perVariant;
    int cancelAfterBatches = 0;
    std::atomic<bool> cancel{false};
};

bool noCounters(const RunReport& report) {
    for (const VariantResult& variant : report.variants) {
        if (variant.countersSource) return false;
        for (const KernelResult& kernel : variant.kernels)
            if (kernel.counters) return false;
    }
    return true;
}

bool noSampling(const RunReport& report) {
    for (const VariantResult& variant : report.variants)
        if (!variant.samples.empty() || !variant.timeline.empty() || variant.samplesSource)
            return false;
    return true;
}

// A swiglu run measured as `options` say, on a backend that acts like a GPU.
Result<RunReport> measureOnGpuLike(FakeCounterProvider& provider, StreamObserver& observer,
                                   const MeasureOptions& options = {}) {
    GpuLikeBackend backend(provider);
    return runMeasured(backend, provider, smallRequest(), options, observer);
}

// The same with the scripted counters only, each launch counted once, no sampling.
Result<RunReport> measureScriptedCountersOnly(FakeCounterProvider& provider) {
    provider.setCounterScript(scripted);
    StreamObserver observer;
    MeasureOptions options;
    options.sampling = false;
    options.countedLaunches = 1;
    return measureOnGpuLike(provider, observer, options);
}

// The same with the scripted counters, sampling every `intervalNs` over `repeats` timed runs.
Result<RunReport> measureScriptedSampling(FakeCounterProvider& provider, StreamObserver& observer,
                                          std::int64_t intervalNs, int repeats) {
    provider.setCounterScript(scripted);
    MeasureOptions options;
    options.samplingIntervalNs = intervalNs;
    options.samplingRepeats = repeats;
    return measureOnGpuLike(provider, observer, options);
}

}  // namespace

TEST(MeasuredRun, CountersFlowIntoEveryKernelInLaunchOrder) {
    FakeCounterProvider provider;
    Result<RunReport> report = measureScriptedCountersOnly(provider);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_TRUE(report->counterStatus.empty()) << report->counterStatus;
    const PipelineSpec& pipeline = *findPipeline("swiglu");
    ASSERT_EQ(report->variants.size(), pipeline.variants.size());
    std::size_t index = 0;
    for (const VariantResult& variant : report->variants) {
        ASSERT_TRUE(variant.countersSource.has_value());
        EXPECT_EQ(*variant.countersSource, MeasurementSource::Counters);
        EXPECT_EQ(variant.timingSource, MeasurementSource::TimingModel);
        EXPECT_FALSE(variant.samplesSource.has_value());
        for (const KernelResult& kernel : variant.kernels) {
            ASSERT_TRUE(kernel.counters.has_value()) << variant.variant << " " << kernel.name;
            EXPECT_DOUBLE_EQ(kernel.counters->dramBytesRead, scripted(index).dramBytesRead);
            EXPECT_DOUBLE_EQ(*kernel.counters->sectorsWritten, *scripted(index).sectorsWritten);
            ++index;
        }
        EXPECT_TRUE(variant.check.ok);  // the timed run still checked the output
    }
    EXPECT_EQ(provider.measureCalls(), static_cast<int>(pipeline.variants.size()));
    EXPECT_GT(report->counterRunWallMs, 0.0);
}

// Records what the counter run launches and allocates, in order.
class LaunchRecordingBackend : public GpuLikeBackend {
  public:
    using GpuLikeBackend::GpuLikeBackend;
    Result<void*> allocate(std::uint64_t bytes) override {
        largestAllocation = std::max(largestAllocation, bytes);
        return GpuLikeBackend::allocate(bytes);
    }
    Result<std::vector<double>> timeLaunches(std::span<const KernelLaunch> launches,
                                             TimedStart timedStart) override {
        for (const KernelLaunch& launch : launches) names.push_back(launch.call.kernelName);
        Result<std::vector<double>> times = GpuLikeBackend::timeLaunches(launches, timedStart);
        if (cancelAfterKernel && names.back() != "cache_sweep") *cancelAfterKernel = true;
        return times;
    }
    std::vector<std::string> names;
    std::atomic<bool>* cancelAfterKernel = nullptr;  // set once a measured kernel has run
    std::uint64_t largestAllocation = 0;
};

// Dirty L2 lines left by the uploads and the previous kernel must be written back before a
// range starts, or the range counts them as its kernel's writes.
// A timed affine run, three counter passes a launch, on a backend that records what comes next.
class CounterRunAfterTiming : public testing::Test {
  protected:
    void SetUp() override {
        provider.setPassesPerLaunch(3);
        backend.kernelSleepMs = 0;
        Result<RunReport> run = runPipeline(backend, request, observer);
        ASSERT_TRUE(run) << run.status().message();
        timed = std::move(*run);
        const PipelineSpec& pipeline = *findPipeline("affine");
        inputs = makeHostInputs(pipeline, selectedVariants(pipeline, request), request.problem,
                                request.settings.seed);
        backend.names.clear();
        backend.largestAllocation = 0;
    }
    Status addCounters(int countedLaunches = 1) {
        return addCounterRun(backend, provider, request, countedLaunches, inputs, timed, observer);
    }
    // The measured kernels' names in the order the counter run launched them.
    std::vector<std::string> countedKernels() const {
        std::vector<std::string> kernels;
        for (const std::string& name : backend.names)
            if (name != "cache_sweep") kernels.push_back(name);
        return kernels;
    }

    FakeCounterProvider provider;
    LaunchRecordingBackend backend{provider};
    const RunRequest request = completedRequest(smallRequest("affine"));
    StreamObserver observer;
    RunReport timed;
    HostBuffers inputs;
};

TEST_F(CounterRunAfterTiming, EveryCounterPassStartsAfterASweepOfFourTimesTheL2) {
    ASSERT_TRUE(addCounters());

    std::size_t kernels = 0;
    for (const VariantResult& variant : timed.variants) kernels += variant.kernels.size();
    ASSERT_EQ(backend.names.size(), kernels * 3 * 2);
    for (std::size_t i = 0; i < backend.names.size(); i += 2) {
        EXPECT_EQ(backend.names[i], "cache_sweep") << "launch " << i;
        EXPECT_NE(backend.names[i + 1], "cache_sweep") << "launch " << i + 1;
    }
    EXPECT_GE(backend.largestAllocation, 4 * backend.describe().l2CacheBytes);
}

// A tiled kernel's DRAM reads move from launch to launch: each launch is counted in rounds (the
// variant's launches in order, then again), and each kernel keeps its median and range.
TEST_F(CounterRunAfterTiming, EachLaunchIsCountedInRoundsAndKeepsItsMedianAndRange) {
    provider.setPassesPerLaunch(1);
    // The i-th count reads 1..5 MB in an order that is not monotonic, so that counts taken in
    // the wrong order would give other medians.
    const auto readsOfCount = [](std::size_t index) { return 1e6 * double(1 + index * 7 % 5); };
    provider.setCounterScript([&](std::size_t index) {
        KernelCounters counters = testing_support::counted(readsOfCount(index), 5e5, 10.0, 20.0);
        counters.l2SectorsRead = 100.0;
        return counters;
    });
    constexpr std::size_t kRounds = 3;
    ASSERT_TRUE(addCounters(static_cast<int>(kRounds)));

    std::vector<std::string> expected;
    std::size_t offset = 0;  // the fake numbers counts across the whole run
    for (const VariantResult& variant : timed.variants) {
        const std::size_t kernels = variant.kernels.size();
        for (std::size_t round = 0; round < kRounds; ++round)
            for (const KernelResult& kernel : variant.kernels) expected.push_back(kernel.name);
        for (std::size_t k = 0; k < kernels; ++k) {
            std::vector<double> reads;
            for (std::size_t round = 0; round < kRounds; ++round)
                reads.push_back(readsOfCount(offset + round * kernels + k));
            std::sort(reads.begin(), reads.end());
            const std::optional<KernelCounters>& counters = variant.kernels[k].counters;
            ASSERT_TRUE(counters) << variant.variant << " " << k;
            EXPECT_EQ(counters->countedLaunches, kRounds);
            EXPECT_DOUBLE_EQ(counters->dramBytesRead, reads[1]) << variant.variant << " " << k;
            ASSERT_TRUE(counters->dramReadSpread);
            EXPECT_DOUBLE_EQ(counters->dramReadSpread->low, reads.front());
            EXPECT_DOUBLE_EQ(counters->dramReadSpread->high, reads.back());
            ASSERT_TRUE(counters->l2SectorsReadSpread);
            EXPECT_DOUBLE_EQ(counters->l2SectorsReadSpread->high, 100.0);
        }
        offset += kRounds * kernels;
    }
    EXPECT_EQ(countedKernels(), expected);
}

TEST_F(CounterRunAfterTiming, CountedLaunchesOutsideOneToNineAreRefused) {
    for (int launches : {0, kMaxCountedLaunches + 1}) {
        const Status status = addCounters(launches);
        EXPECT_EQ(status.code(), ErrorCode::InvalidArgument) << launches;
        EXPECT_NE(status.message().find("counted launches"), std::string::npos);
    }
    EXPECT_TRUE(backend.names.empty());
    MeasureOptions options;
    options.countedLaunches = 0;
    EXPECT_FALSE(validateMeasureOptions(options));
    options.countedLaunches = kMaxCountedLaunches;
    EXPECT_TRUE(validateMeasureOptions(options));
    options.counters = false;  // without a counter run the number is not used
    options.countedLaunches = 0;
    EXPECT_TRUE(validateMeasureOptions(options));
}

TEST_F(CounterRunAfterTiming, CancellingDuringTheCounterRunStopsBeforeTheNextPass) {
    backend.cancelAfterKernel = &observer.cancel;
    const Status status = addCounters();
    EXPECT_EQ(status.code(), ErrorCode::Cancelled) << status.message();
    // The sweep and the one pass that was running when the cancel came, nothing after.
    EXPECT_EQ(backend.names.size(), 2u);
}

TEST(MeasuredRun, RefusedCountersKeepTimingAndModelAndSaySoOnce) {
    FakeCounterProvider provider(FakeCounterProvider::refusedCapability(
        CounterRefusal::Privileges, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)"));
    StreamObserver observer;
    Result<RunReport> report = measureOnGpuLike(provider, observer);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_NE(report->counterStatus.find("restricted to administrators"), std::string::npos)
        << report->counterStatus;
    EXPECT_NE(report->counterStatus.find("NVreg_RestrictProfilingToAdminUsers=0"),
              std::string::npos);
    EXPECT_NE(report->counterStatus.find("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"), std::string::npos);
    EXPECT_EQ(provider.capabilityCalls(), 1);
    EXPECT_EQ(provider.measureCalls(), 0);
    EXPECT_TRUE(noCounters(*report));
    EXPECT_TRUE(noSampling(*report));
    for (const VariantResult& variant : report->variants) {
        EXPECT_GT(variant.timeMs, 0.0);
        EXPECT_GT(variant.modelBytesRead, 0u);
        EXPECT_TRUE(variant.check.ok);
    }
    EXPECT_EQ(observer.batches, 0);
}

// The CUPTI provider builds its reason from the error with the advice already in it.
TEST(MeasuredRun, AdviceInTheReasonIsNotRepeated) {
    CounterCapability capability =
        FakeCounterProvider::refusedCapability(CounterRefusal::ProfilerInUse, "CUPTI (39)");
    capability.reason += " " + capability.adminAdvice;
    FakeCounterProvider provider(capability);
    StreamObserver observer;
    Result<RunReport> report = measureOnGpuLike(provider, observer);
    ASSERT_TRUE(report) << report.status().message();
    const std::string& status = report->counterStatus;
    const std::size_t first = status.find(capability.adminAdvice);
    ASSERT_NE(first, std::string::npos) << status;
    EXPECT_EQ(status.find(capability.adminAdvice, first + 1), std::string::npos) << status;
}

TEST(MeasuredRun, RefusalAtTheFirstMeasurementStopsAllCounterWork) {
    FakeCounterProvider provider;
    provider.refuseMeasurements(CounterRefusal::ProfilerInUse,
                                "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39)");
    StreamObserver observer;
    Result<RunReport> report = measureOnGpuLike(provider, observer);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_NE(report->counterStatus.find("another profiler"), std::string::npos)
        << report->counterStatus;
    EXPECT_EQ(provider.measureCalls(), 1);  // said once, not once per variant
    EXPECT_TRUE(noCounters(*report));
    EXPECT_TRUE(noSampling(*report));
    EXPECT_FALSE(provider.sampling());
}

TEST(MeasuredRun, ALaunchWithoutKernelsLeavesCountersEmptyInsteadOfGuessing) {
    FakeCounterProvider provider;
    provider.setDeviceKernelsPerLaunch(0);
    Result<RunReport> report = measureScriptedCountersOnly(provider);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_NE(report->counterStatus.find("no kernel"), std::string::npos) << report->counterStatus;
    EXPECT_TRUE(noCounters(*report));
}

TEST(MeasuredRun, ALaunchOfSeveralDeviceKernelsGetsTheirSum) {
    // A library call (cuBLAS with a split-K reduction) starts two kernels for one launch.
    FakeCounterProvider provider;
    provider.setDeviceKernelsPerLaunch(2);
    Result<RunReport> report = measureScriptedCountersOnly(provider);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_TRUE(report->counterStatus.empty()) << report->counterStatus;
    std::size_t launch = 0;
    for (const VariantResult& variant : report->variants) {
        for (const KernelResult& kernel : variant.kernels) {
            ASSERT_TRUE(kernel.counters.has_value());
            EXPECT_EQ(kernel.counters->deviceKernels, 2u);
            EXPECT_DOUBLE_EQ(kernel.counters->dramBytesRead, 2 * scripted(launch).dramBytesRead);
            ++launch;
        }
    }
    EXPECT_GT(launch, 0u);
}

TEST(MeasuredRun, TheCpuBackendSaysCountersNeedCuda) {
    FakeCounterProvider provider;
    auto backend = createCpuBackend(2);
    StreamObserver observer;
    Result<RunReport> report = runMeasured(*backend, provider, smallRequest(), {}, observer);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_NE(report->counterStatus.find("CUDA backend"), std::string::npos);
    EXPECT_EQ(provider.capabilityCalls(), 0);
    EXPECT_TRUE(noCounters(*report));
    for (const VariantResult& variant : report->variants)
        EXPECT_EQ(variant.timingSource, MeasurementSource::CpuBackend);
}

TEST(MeasuredRun, SamplesStreamInTimeOrderWhileTheRunGoes) {
    FakeCounterProvider provider;
    StreamObserver observer;
    Result<RunReport> report = measureScriptedSampling(provider, observer, 100'000, 4);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_TRUE(report->counterStatus.empty()) << report->counterStatus;
    // Several batches, not one at the end.
    EXPECT_GT(observer.batches, static_cast<int>(report->variants.size()));
    ASSERT_GT(observer.order.size(), 10u);
    for (std::size_t i = 1; i < observer.order.size(); ++i) {
        EXPECT_EQ(observer.order[i].startNs, observer.order[i - 1].endNs) << "sample " << i;
        EXPECT_GT(observer.order[i].endNs, observer.order[i].startNs);
    }
    std::uint64_t total = 0;
    for (const VariantResult& variant : report->variants) {
        ASSERT_TRUE(variant.samplesSource.has_value()) << variant.variant;
        const auto& streamed = observer.perVariant[variant.variant];
        ASSERT_EQ(streamed.size(), variant.samples.size()) << variant.variant;
        for (std::size_t i = 0; i < streamed.size(); ++i)
            EXPECT_EQ(streamed[i].startNs, variant.samples[i].startNs);
        for (const BandwidthSample& sample : variant.samples)
            EXPECT_NEAR(sample.readBytesPerSecond, FakeCounterProvider::kReadBytesPerSecond, 1.0);
        total += variant.samples.size();
    }
    EXPECT_EQ(report->samplesDecoded, total);
    EXPECT_GT(report->samplingRunWallMs, 0.0);
}

TEST(MeasuredRun, TimelineHoldsKernelsAndNamedAllocationsOnTheSamplesClock) {
    FakeCounterProvider provider;
    StreamObserver observer;
    Result<RunReport> report = measureScriptedSampling(provider, observer, 200'000, 3);
    const RunRequest request = smallRequest();  // the one measured
    ASSERT_TRUE(report) << report.status().message();
    const PipelineSpec& pipeline = *findPipeline("swiglu");
    std::map<std::string, std::uint64_t> peaks;
    std::size_t spans = 0;
    for (const VariantResult& variant : report->variants) {
        const VariantSpec& spec = *findVariant(pipeline, variant.variant);
        const auto kernels = spansOfKind(variant.timeline, TimelineSpan::Kind::Kernel);
        const auto allocations = spansOfKind(variant.timeline, TimelineSpan::Kind::Allocation);
        EXPECT_EQ(kernels.size(), spec.kernelsFor(variant.problem).size() * 3) << variant.variant;
        ASSERT_EQ(allocations.size(), spec.buffers.size()) << variant.variant;
        for (const TimelineSpan& allocation : allocations) {
            EXPECT_NE(findBuffer(spec, allocation.name), nullptr) << allocation.name;
            EXPECT_EQ(allocation.bytes, request.problem.dimension("N") * sizeof(float));
            EXPECT_LT(allocation.startNs, allocation.endNs);
        }
        // Every kernel ran while all of its buffers were allocated.
        for (const TimelineSpan& kernel : kernels)
            for (const TimelineSpan& allocation : allocations) {
                EXPECT_LE(allocation.startNs, kernel.startNs);
                EXPECT_GE(allocation.endNs, kernel.endNs);
            }
        ASSERT_FALSE(variant.samples.empty());
        EXPECT_LE(variant.samples.front().startNs, kernels.front().endNs);
        EXPECT_GE(variant.samples.back().endNs, kernels.back().startNs);
        peaks[variant.variant] = peakAllocatedBytes(variant.timeline);
        spans += variant.timeline.size();
    }
    EXPECT_EQ(observer.spanCount, spans);
    EXPECT_EQ(peaks["scratch"], peaks["fused"] + request.problem.dimension("N") * sizeof(float));
}

TEST(MeasuredRun, CancellingDuringSamplingStopsTheSession) {
    FakeCounterProvider provider;
    GpuLikeBackend backend(provider);
    backend.kernelSleepMs = 5;
    StreamObserver observer;
    observer.cancelAfterBatches = 2;
    MeasureOptions options;
    options.counters = false;
    options.samplingRepeats = 50;
    Result<RunReport> report = runMeasured(backend, provider, smallRequest(), options, observer);
    ASSERT_FALSE(report);
    EXPECT_EQ(report.status().code(), ErrorCode::Cancelled);
    EXPECT_FALSE(provider.sampling());
}

TEST(MeasuredRun, RejectsSamplingIntervalsOutsideTenMicrosecondsToOneMillisecond) {
    FakeCounterProvider provider;
    GpuLikeBackend backend(provider);
    StreamObserver observer;
    MeasureOptions options;
    options.samplingIntervalNs = 5'000;
    Result<RunReport> report = runMeasured(backend, provider, smallRequest(), options, observer);
    ASSERT_FALSE(report);
    EXPECT_EQ(report.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(report.status().message().find("10 us"), std::string::npos);
    options.samplingIntervalNs = 2'000'000;
    EXPECT_FALSE(validateMeasureOptions(options));
    options.samplingIntervalNs = 1'000'000;
    EXPECT_TRUE(validateMeasureOptions(options));
}

TEST(MeasuredRun, RecordsTheCostOfMeasuring) {
    FakeCounterProvider provider;
    provider.setCounterScript(scripted);
    GpuLikeBackend backend(provider);
    StreamObserver observer;
    Result<RunReport> report = runMeasured(backend, provider, smallRequest("affine"), {}, observer);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_GT(report->counterRunWallMs, 0.0);
    EXPECT_GT(report->samplingRunWallMs, 0.0);
    EXPECT_GT(report->samplesDecoded, 0u);
    EXPECT_GT(report->hostCpuUsPerSample, 0.0);  // the fake's sample thread's CPU time
}
