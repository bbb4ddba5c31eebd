// Real counters on a GPU (the H200): measured DRAM bytes against the pass model, PM samples
// against the Range Profiler, allocation peaks from the Activity API. Skips with the reason where
// no GPU or no counter access is usable. Prints the numbers the lead reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "measure/gap.h"
#include "measure/measured_run.h"
#include "measure/timeline.h"
#include "pipelines/registry.h"
#include "support/elementwise_request.h"

using namespace fusescope;

namespace {

class QuietObserver : public RunObserver {};

struct GpuFixture {
    std::unique_ptr<Backend> backend;
    std::unique_ptr<CounterProvider> provider;
    std::string skipReason;
};

GpuFixture openGpu() {
    GpuFixture gpu;
    const BackendAvailability availability = probeBackends();
    if (!availability.cudaUsable) {
        gpu.skipReason = "no usable GPU: " + availability.cudaReason;
        return gpu;
    }
    Result<std::unique_ptr<Backend>> backend = createCudaBackend();
    if (!backend) {
        gpu.skipReason = "CUDA backend: " + backend.status().message();
        return gpu;
    }
    gpu.backend = std::move(*backend);
    gpu.provider = createCounterProvider();
    // The capability probe needs the backend's context current on this thread: it is.
    const CounterCapability capability = gpu.provider->capability();
    if (!capability.available)
        gpu.skipReason = "counters refused: " + capability.reason + " " + capability.adminAdvice;
    return gpu;
}

std::uint64_t elementsFromEnvironment(std::uint64_t fallback) {
    const char* text = std::getenv("FUSESCOPE_GPU_TEST_LOG2N");
    return text ? (std::uint64_t{1} << std::strtoul(text, nullptr, 10)) : fallback;
}

double percentOff(double measured, double model) {
    return model > 0 ? (measured - model) / model * 100.0 : 0.0;
}

Result<RunReport> measure(GpuFixture& gpu, const std::string& pipeline, std::uint64_t n,
                          int vectorWidth) {
    const RunRequest request = testsupport::elementwiseRequest(pipeline, n, vectorWidth, 5, 2);
    MeasureOptions options;  // the default sampling interval, as users get it
    options.samplingRepeats = 3;
    QuietObserver observer;
    return runMeasured(*gpu.backend, *gpu.provider, request, options, observer);
}

}  // namespace

class GpuCounters : public testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(GpuCounters, MatchTheModelAndThePmSamplesAtTwoToThe28) {
    GpuFixture gpu = openGpu();
    if (!gpu.skipReason.empty()) GTEST_SKIP() << gpu.skipReason;
    const auto& [pipeline, vectorWidth] = GetParam();
    const std::uint64_t n = elementsFromEnvironment(std::uint64_t{1} << 28);
    Result<RunReport> report = measure(gpu, pipeline, n, vectorWidth);
    ASSERT_TRUE(report) << report.status().message();
    ASSERT_TRUE(report->counterStatus.empty()) << report->counterStatus;
    std::printf(
        "%s vector %d, N = %llu: counter run %.1f ms, sampling run %.1f ms, %llu samples, "
        "%.2f us host CPU per sample\n",
        pipeline.c_str(), vectorWidth, static_cast<unsigned long long>(n), report->counterRunWallMs,
        report->samplingRunWallMs, static_cast<unsigned long long>(report->samplesDecoded),
        report->hostCpuUsPerSample);
    for (const VariantResult& variant : report->variants) {
        ASSERT_TRUE(variant.check.ok) << variant.variant;
        const auto spans = spansOfKind(variant.timeline, TimelineSpan::Kind::Kernel);
        const std::size_t count = variant.kernels.size();
        ASSERT_EQ(spans.size(), count * 3) << variant.variant << ": kernel records";
        for (std::size_t k = 0; k < count; ++k) {
            const KernelResult& kernel = variant.kernels[k];
            ASSERT_TRUE(kernel.counters) << variant.variant << " " << kernel.name;
            // Each launch counted as often as users get it; a streaming kernel's DRAM bytes are
            // its arrays', the same every launch, so its range stays within 3%.
            const KernelCounters& counted = *kernel.counters;
            EXPECT_EQ(counted.countedLaunches, std::uint32_t(kDefaultCountedLaunches));
            ASSERT_TRUE(counted.dramReadSpread && counted.dramWrittenSpread) << kernel.name;
            EXPECT_LE(counted.dramReadSpread->low, counted.dramBytesRead);
            EXPECT_GE(counted.dramReadSpread->high, counted.dramBytesRead);
            EXPECT_FALSE(spreadExceedsTolerance(*counted.dramReadSpread, counted.dramBytesRead))
                << kernel.name << " reads " << counted.dramReadSpread->low << " .. "
                << counted.dramReadSpread->high;
            EXPECT_FALSE(
                spreadExceedsTolerance(*counted.dramWrittenSpread, counted.dramBytesWritten))
                << kernel.name << " writes " << counted.dramWrittenSpread->low << " .. "
                << counted.dramWrittenSpread->high;
            const double readOff =
                percentOff(kernel.counters->dramBytesRead, double(kernel.modelBytesRead));
            const double writeOff =
                percentOff(kernel.counters->dramBytesWritten, double(kernel.modelBytesWritten));
            // PM samples over each launch of this kernel, against the Range Profiler's bytes.
            std::vector<double> pmOff;
            for (std::size_t r = 0; r < 3; ++r) {
                const TimelineSpan& span = spans[r * count + k];
                const SpanTraffic pm = integrateSamples(variant.samples, span.startNs, span.endNs);
                pmOff.push_back(
                    percentOff(pm.bytesRead + pm.bytesWritten,
                               kernel.counters->dramBytesRead + kernel.counters->dramBytesWritten));
            }
            std::sort(pmOff.begin(), pmOff.end());
            std::printf(
                "  %-10s %-22s %8.3f ms  model rd %.4g wr %.4g  DRAM rd %.4g (%+.2f%%) "
                "wr %.4g (%+.2f%%)  sectors rd %.4g wr %.4g  PM vs range %+.2f%% "
                "(median of 3)\n",
                variant.variant.c_str(), kernel.name.c_str(), kernel.timeMs,
                double(kernel.modelBytesRead), double(kernel.modelBytesWritten),
                kernel.counters->dramBytesRead, readOff, kernel.counters->dramBytesWritten,
                writeOff, *kernel.counters->sectorsRead, *kernel.counters->sectorsWritten,
                pmOff[1]);
            EXPECT_LE(std::abs(readOff), 3.0) << variant.variant << " " << kernel.name;
            EXPECT_LE(std::abs(writeOff), 3.0) << variant.variant << " " << kernel.name;
            EXPECT_LE(std::abs(pmOff[1]), 5.0) << variant.variant << " " << kernel.name;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Elementwise, GpuCounters,
                         testing::Values(std::make_tuple("swiglu", 4), std::make_tuple("swiglu", 1),
                                         std::make_tuple("affine", 4)));

TEST(GpuTimeline, ScratchPeaksOneArrayAboveFusedInTheActivityRecords) {
    GpuFixture gpu = openGpu();
    if (!gpu.skipReason.empty()) GTEST_SKIP() << gpu.skipReason;
    const std::uint64_t n = elementsFromEnvironment(std::uint64_t{1} << 28);
    Result<RunReport> report = measure(gpu, "swiglu", n, 4);
    ASSERT_TRUE(report) << report.status().message();
    std::uint64_t scratch = 0, fused = 0;
    for (const VariantResult& variant : report->variants) {
        const std::uint64_t peak = peakAllocatedBytes(variant.timeline);
        std::printf("  %-10s peak in flight: %llu bytes (Activity API), %llu (tracker)\n",
                    variant.variant.c_str(), static_cast<unsigned long long>(peak),
                    static_cast<unsigned long long>(variant.peakBytesInFlight));
        if (variant.variant == "scratch") scratch = peak;
        if (variant.variant == "fused") fused = peak;
    }
    ASSERT_GT(fused, 0u);
    EXPECT_EQ(scratch, fused + n * sizeof(float));
}

// Inside the L2 the DRAM counters fall far below the model; the program must say why.
TEST(GpuGaps, InsideTheL2TheGapIsExplained) {
    GpuFixture gpu = openGpu();
    if (!gpu.skipReason.empty()) GTEST_SKIP() << gpu.skipReason;
    Result<RunReport> report = measure(gpu, "swiglu", std::uint64_t{1} << 22, 4);
    ASSERT_TRUE(report) << report.status().message();
    bool anyLargeGap = false;
    for (const VariantGap& gap : explainGaps(*report)) {
        std::printf("  %-10s model %.4g B, DRAM %.4g B, gap %+.1f%%\n", gap.variant.c_str(),
                    gap.modelBytes, gap.measuredBytes, gap.percent.value_or(0.0));
        for (const GapFinding& finding : gap.findings)
            std::printf("      why: %s\n", finding.words.c_str());
        if (gap.percent && std::abs(*gap.percent) > kGapThresholdPercent) {
            anyLargeGap = true;
            EXPECT_FALSE(gap.findings.empty()) << gap.variant;
        }
    }
    EXPECT_TRUE(anyLargeGap) << "at 16 MB per array some variant should stay in the 60 MB L2";
}

// The decode GEMV writes one row of h (28.7 kB at decode-1); what uploads, poisoning and earlier
// kernels left dirty in the 60 MB L2 must be written back before its range, not counted in it.
TEST(GpuCounters, DecodeGemvDramWritesMatchTheModelWithinOneMegabyte) {
    GpuFixture gpu = openGpu();
    if (!gpu.skipReason.empty()) GTEST_SKIP() << gpu.skipReason;
    const PipelineSpec& mlp = *findPipeline("mlp");
    const PresetSpec* decode = mlp.findPreset("decode-1");
    ASSERT_NE(decode, nullptr);
    RunRequest request;
    request.pipeline = "mlp";
    request.variants = {"production"};
    request.problem = withPreset(request.problem, *decode);
    request.problem.dtype = DType::Bfloat16;
    request.settings.repeats = 3;
    request.settings.warmup = 1;
    request.roofs = false;
    MeasureOptions options;
    options.sampling = false;
    QuietObserver observer;
    Result<RunReport> report = runMeasured(*gpu.backend, *gpu.provider, request, options, observer);
    ASSERT_TRUE(report) << report.status().message();
    ASSERT_TRUE(report->counterStatus.empty()) << report->counterStatus;
    constexpr double kOneMegabyte = 1e6;
    int gemvs = 0;
    for (const VariantResult& variant : report->variants)
        for (const KernelResult& kernel : variant.kernels) {
            ASSERT_TRUE(kernel.counters) << kernel.name;
            std::printf("  %-12s %-20s DRAM rd %.4g (model %.4g)  wr %.4g (model %.4g)\n",
                        variant.variant.c_str(), kernel.name.c_str(),
                        kernel.counters->dramBytesRead, double(kernel.modelBytesRead),
                        kernel.counters->dramBytesWritten, double(kernel.modelBytesWritten));
            if (kernel.name.rfind("gemv", 0) != 0) continue;
            ++gemvs;
            EXPECT_LE(
                std::abs(kernel.counters->dramBytesWritten - double(kernel.modelBytesWritten)),
                kOneMegabyte)
                << kernel.name;
        }
    EXPECT_GT(gemvs, 0) << "production at decode-1 runs the GEMV kernels";
}
