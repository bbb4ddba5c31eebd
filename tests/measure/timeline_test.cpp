#include <gtest/gtest.h>

#include "fakes/fake_counter_provider.h"
#include "measure/counter_provider.h"
#include "measure/timeline.h"

using namespace fusescope;

namespace {

ActivityRecord memory(ActivityRecord::Kind kind, std::int64_t t, std::uint64_t address,
                      std::uint64_t bytes = 0) {
    ActivityRecord record;
    record.kind = kind;
    record.startNs = record.endNs = t;
    record.address = address;
    record.bytes = bytes;
    return record;
}

}  // namespace

TEST(Timeline, PairsAllocationsWithFreesNamesThemAndRebases) {
    TimelineBuilder builder(1000);
    builder.nameBuffer(0xA0, "scratch");
    ActivityRecord kernel;
    kernel.kind = ActivityRecord::Kind::Kernel;
    kernel.name = "swiglu_silu";
    kernel.startNs = 1500;
    kernel.endNs = 1700;
    auto spans = builder.add({memory(ActivityRecord::Kind::Allocate, 1100, 0xA0, 64), kernel,
                              memory(ActivityRecord::Kind::Allocate, 1200, 0xB0, 32)});
    ASSERT_EQ(spans.size(), 1u);  // only the kernel is complete
    EXPECT_EQ(spans[0].startNs, 500);
    EXPECT_EQ(spans[0].endNs, 700);
    spans = builder.add({memory(ActivityRecord::Kind::Free, 1800, 0xA0),
                         memory(ActivityRecord::Kind::Free, 1900, 0xC0)});  // 0xC0: unknown
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0].name, "scratch");
    EXPECT_EQ(spans[0].startNs, 100);
    EXPECT_EQ(spans[0].endNs, 800);
    EXPECT_EQ(spans[0].bytes, 64u);
    spans = builder.finish(3000);  // 0xB0 was never freed
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0].name, "device allocation");
    EXPECT_EQ(spans[0].endNs, 2000);
}

TEST(Timeline, KernelNamesAreReadable) {
    // void fusescope::(anonymous namespace)::swigluFused<4>(float const*, float const*, float*,
    // unsigned long)
    EXPECT_EQ(readableKernelName("_ZN9fusescope12_GLOBAL__N_111swigluFusedILi4EEEvPKfS3_Pfm"),
              "swigluFused<4>");
    EXPECT_EQ(readableKernelName("void ns::copy<float, 4>(float*)"), "copy<float, 4>");
    EXPECT_EQ(readableKernelName("plain_kernel"), "plain_kernel");
}

TEST(Timeline, IntegratesSamplesByOverlap) {
    const std::vector<BandwidthSample> samples = {
        // 1000, 2000 and 4000 bytes read (and a tenth written) in 100 ns each.
        {0, 100, 1e10, 1e9},
        {100, 200, 2e10, 2e9},
        {200, 300, 4e10, 4e9}};
    const SpanTraffic whole = integrateSamples(samples, 0, 300);
    EXPECT_DOUBLE_EQ(whole.bytesRead, 7000);
    EXPECT_DOUBLE_EQ(whole.bytesWritten, 700);
    const SpanTraffic part = integrateSamples(samples, 50, 250);
    EXPECT_DOUBLE_EQ(part.bytesRead, 500 + 2000 + 2000);
    EXPECT_DOUBLE_EQ(integrateSamples(samples, 300, 400).bytesRead, 0.0);
}

TEST(Timeline, PeakAllocatedBytesCountsOverlapsOnly) {
    std::vector<TimelineSpan> spans = {
        {TimelineSpan::Kind::Allocation, "a", 0, 100, 10},
        {TimelineSpan::Kind::Allocation, "b", 50, 150, 20},
        {TimelineSpan::Kind::Allocation, "c", 150, 200, 25},  // starts as b ends
        {TimelineSpan::Kind::Kernel, "k", 0, 200, 999},
    };
    EXPECT_EQ(peakAllocatedBytes(spans), 30u);
}

TEST(Timeline, SamplesReportTheirBytes) {
    const BandwidthSample sample{0, 10'000, 3e9, 1e9};  // 10 us
    EXPECT_DOUBLE_EQ(sample.dramBytesRead(), 30e3);
    EXPECT_DOUBLE_EQ(sample.dramBytesWritten(), 10e3);
    EXPECT_DOUBLE_EQ(BandwidthSample{}.dramBytesRead(), 0.0);
}

TEST(CounterRefusal, EveryReasonIsRecognisedAgainAndPrivilegesSayWhatToChange) {
    for (CounterRefusal kind :
         {CounterRefusal::NotBuilt, CounterRefusal::LibraryMissing, CounterRefusal::NoDevice,
          CounterRefusal::Privileges, CounterRefusal::ProfilerInUse, CounterRefusal::NotSupported,
          CounterRefusal::NeedsCudaBackend}) {
        const std::string reason = refusalReason(kind, "detail text");
        EXPECT_NE(reason.find("detail text"), std::string::npos);
        EXPECT_NE(reason.find("Timing and the pass model"), std::string::npos);
        EXPECT_EQ(refusalFromReason(reason), kind) << reason;
    }
    EXPECT_EQ(refusalFromReason("something else"), CounterRefusal::Other);
    EXPECT_NE(
        refusalAdvice(CounterRefusal::Privileges).find("NVreg_RestrictProfilingToAdminUsers=0"),
        std::string::npos);
    EXPECT_NE(refusalAdvice(CounterRefusal::Privileges).find("root"), std::string::npos);
    EXPECT_NE(refusalAdvice(CounterRefusal::LibraryMissing).find("LD_LIBRARY_PATH"),
              std::string::npos);
}

// On a machine without a GPU (or CUPTI) the real provider refuses in words; it never crashes.
TEST(CounterProviderLoader, RefusesInWordsWhereCountersCannotWork) {
    std::unique_ptr<CounterProvider> provider = createCounterProvider();
    ASSERT_NE(provider, nullptr);
    const CounterCapability capability = provider->capability();
    if (capability.available)
        GTEST_SKIP() << "counters are available here: " << capability.provider;
    EXPECT_FALSE(capability.reason.empty());
    EXPECT_NE(capability.refusal, CounterRefusal::None);
    EXPECT_FALSE(provider->measureLaunches(
        1, [](std::size_t) { return Status::ok(); }, [] { return Status::ok(); }));
    EXPECT_FALSE(provider->startSampling(10'000, [](SamplingBatch&&) {}));
    std::cout << "refusal here: " << capability.reason << "\n";
}

TEST(FakeCounterProvider, RejectsASecondSessionAndStopsCleanly) {
    FakeCounterProvider provider;
    std::vector<BandwidthSample> received;
    ASSERT_TRUE(provider.startSampling(10'000, [&](SamplingBatch&& batch) {
        received.insert(received.end(), batch.samples.begin(), batch.samples.end());
    }));
    EXPECT_FALSE(provider.startSampling(10'000, [](SamplingBatch&&) {}));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    Result<SamplingStats> stats = provider.stopSampling();
    ASSERT_TRUE(stats);
    EXPECT_EQ(stats->samples, received.size());
    EXPECT_GT(received.size(), 100u);  // 5 ms of 10 us samples
    EXPECT_FALSE(provider.stopSampling());
}
