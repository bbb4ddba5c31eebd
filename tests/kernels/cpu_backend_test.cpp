#include <gtest/gtest.h>

#include <cstring>

#include "pipelines/elementwise_family.h"
#include "pipelines/registry.h"
#include "runtime/runner.h"
#include "support/elementwise_request.h"

using namespace fusescope;

namespace {

class CountingObserver : public RunObserver {
  public:
    void progress(double fraction, std::string_view) override { lastFraction = fraction; }
    void variantFinished(const VariantResult&) override { ++finished; }
    bool cancelled() const override { return cancelAfterFirst && finished > 0; }
    double lastFraction = -1;
    int finished = 0;
    bool cancelAfterFirst = false;
};

}  // namespace

// Every pipeline, every variant, both vector widths, sizes that are not multiples of 4.
class CpuBackendRuns : public testing::TestWithParam<std::tuple<std::string, int, std::uint64_t>> {
};

TEST_P(CpuBackendRuns, OutputsMatchTheReference) {
    const auto& [pipeline, vector, n] = GetParam();
    auto backend = createCpuBackend(2);
    const RunRequest request = testsupport::elementwiseRequest(pipeline, n, vector, 2, 1);
    CountingObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    ASSERT_TRUE(report) << report.status().message();
    EXPECT_EQ(report->variants.size(), findPipeline(pipeline)->variants.size());
    EXPECT_EQ(observer.finished, static_cast<int>(report->variants.size()));
    EXPECT_DOUBLE_EQ(observer.lastFraction, 1.0);
    EXPECT_GT(report->roofline.timeMs, 0.0);
    for (const auto& variant : report->variants) {
        EXPECT_TRUE(variant.check.ok) << variant.variant << " err " << variant.check.error
                                      << " unwritten " << variant.check.unwrittenElements;
        EXPECT_EQ(variant.check.unwrittenElements, 0u);
        EXPECT_EQ(variant.repeatTimesMs.size(), 2u);
        EXPECT_EQ(variant.peakBytesInFlight,
                  findVariant(*findPipeline(pipeline), variant.variant)->buffers.size() * n * 4);
        EXPECT_EQ(variant.allocations.size(),
                  2 * findVariant(*findPipeline(pipeline), variant.variant)->buffers.size());
    }
}

INSTANTIATE_TEST_SUITE_P(AllPipelines, CpuBackendRuns,
                         testing::Combine(testing::Values("affine", "swiglu"),
                                          testing::Values(1, 4),
                                          testing::Values(1u, 7u, 1003u, 300001u)));

TEST(CpuBackend, ScratchPeakIsOneArrayLargerThanFused) {
    auto backend = createCpuBackend(2);
    RunRequest request;
    request.pipeline = "swiglu";
    request.variants = {"scratch", "fused"};
    request.problem.dimensions["N"] = 4097;
    request.settings.repeats = 1;
    CountingObserver observer;
    auto report = runPipeline(*backend, request, observer);
    ASSERT_TRUE(report);
    ASSERT_EQ(report->variants.size(), 2u);
    EXPECT_EQ(report->variants[0].peakBytesInFlight - report->variants[1].peakBytesInFlight,
              request.problem.dimension("N") * 4);
}

TEST(CpuBackend, RejectsBadRequestsBeforeAllocating) {
    auto backend = createCpuBackend(1);
    const DeviceInfo device = backend->describe();
    RunRequest request;
    request.pipeline = "swiglu";
    EXPECT_TRUE(validateRequest(request, device));
    request.pipeline = "nope";
    EXPECT_EQ(validateRequest(request, device).code(), ErrorCode::InvalidArgument);
    request.pipeline = "swiglu";
    request.variants = {"bogus"};
    EXPECT_EQ(validateRequest(request, device).code(), ErrorCode::InvalidArgument);
    request.variants = {};
    request.problem.dimensions["N"] = 0;
    EXPECT_EQ(validateRequest(request, device).code(), ErrorCode::InvalidArgument);
    request.problem.dimensions["N"] = 1ull << 60;
    const Status tooLarge = validateRequest(request, device);
    EXPECT_EQ(tooLarge.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(tooLarge.message().find("at most"), std::string::npos);
    request.problem.dimensions["N"] = 16;
    request.problem.tuning["vector"] = 3;
    EXPECT_EQ(validateRequest(request, device).code(), ErrorCode::InvalidArgument);
}

TEST(CpuBackend, CancelStopsAndFreesEverything) {
    auto backend = createCpuBackend(1);
    RunRequest request;
    request.pipeline = "swiglu";
    request.problem.dimensions["N"] = 1000;
    request.settings.repeats = 3;
    CountingObserver observer;
    observer.cancelAfterFirst = true;
    auto report = runPipeline(*backend, request, observer);
    ASSERT_FALSE(report);
    EXPECT_EQ(report.status().code(), ErrorCode::Cancelled);
    EXPECT_EQ(observer.finished, 1);
}

// A variant's inputs filled from device-side sources (as the sampling run does) give the same
// checked output as uploads; the host-staged default Backend::copy works too.
TEST(CpuBackend, PreparedVariantFromDeviceSourcesMatchesTheReference) {
    auto backend = createCpuBackend(2);
    RunRequest request;
    request.pipeline = "swiglu";
    request.problem.dimensions["N"] = 10007;
    request = completedRequest(request);
    const std::uint64_t n = request.problem.dimension("N");
    const PipelineSpec& pipeline = *findPipeline("swiglu");
    const VariantSpec& fused = *findVariant(pipeline, "fused");
    const HostBuffers inputs =
        makeHostInputs(pipeline, {&fused}, request.problem, request.settings.seed);
    AllocationTracker tracker(*backend);
    std::vector<TrackedBuffer> sourceBuffers;
    DeviceInputSources sources;
    for (std::size_t i = 0; i < inputs.names.size(); ++i) {
        auto buffer = tracker.allocate(inputs.names[i], n * 4);
        ASSERT_TRUE(buffer);
        ASSERT_TRUE(backend->upload(buffer->data(), inputs.values[i].data(), n * 4));
        sources.emplace(inputs.names[i], buffer->data());
        sourceBuffers.push_back(std::move(*buffer));
    }
    auto prepared = prepareVariant(*backend, tracker, fused, request, inputs, &sources);
    ASSERT_TRUE(prepared) << prepared.status().message();
    ASSERT_TRUE(backend->timeLaunches(prepared->launches, TimedStart::AllEnqueued));
    HostBuffers outputs;
    outputs.names = {"out"};
    outputs.values.emplace_back(n * 4);
    ASSERT_TRUE(
        backend->download(outputs.values.back().data(), prepared->buffers.at("out").data(), n * 4));
    const CheckResult check = pipeline.check(request.problem, inputs, outputs, CancelToken());
    EXPECT_TRUE(check.ok) << check.error;

    std::vector<float> copied(n, 0.0f);
    auto destination = tracker.allocate("copy", n * 4);
    ASSERT_TRUE(destination);
    ASSERT_TRUE(backend->Backend::copy(destination->data(), sources.at("gate"), n * 4));
    ASSERT_TRUE(backend->download(copied.data(), destination->data(), n * 4));
    std::vector<float> gate(n);
    std::memcpy(gate.data(), inputs.find("gate")->data(), n * 4);
    EXPECT_EQ(copied, gate);
}
