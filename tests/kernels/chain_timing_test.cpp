// A chain of kernels is timed as a framework runs it (back to back) where the backend says
// kernels can overlap, and the kernels timed one by one are kept beside it.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "fakes/forwarding_backend.h"
#include "pipelines/registry.h"
#include "runtime/allocation_tracker.h"
#include "runtime/runner.h"

using namespace fusescope;

namespace {

// The CPU backend, with a device whose chains overlap: a chain takes `chainShare` of its
// kernels' summed time, as when the next kernel's blocks start while the previous drains.
class OverlappingBackend : public testing_support::ForwardingBackend {
  public:
    explicit OverlappingBackend(double chainShare)
        : ForwardingBackend(createCpuBackend(2)), chainShare_(chainShare) {}

    bool chainsCanOverlap() const override { return true; }
    Result<double> timeChain(std::span<const KernelLaunch> launches) override {
        ++chainsTimed;
        Result<std::vector<double>> times = inner().timeLaunches(launches, TimedStart::AllEnqueued);
        if (!times) return times.status();
        double sum = 0.0;
        for (const double time : *times) sum += time;
        chainTimes.push_back(sum * chainShare_);
        return chainTimes.back();
    }

    int chainsTimed = 0;
    std::vector<double> chainTimes;

  private:
    double chainShare_;
};

class QuietObserver : public RunObserver {
  public:
    void progress(double, std::string_view) override {}
    void variantFinished(const VariantResult&) override {}
    bool cancelled() const override { return false; }
};

double medianOf(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// One variant of SwiGLU at N = 100003, one warm-up and five repeats; an empty result (no
// kernels) where the run did not give exactly that variant.
VariantResult runSwiglu(Backend& backend, const std::string& variant) {
    RunRequest request;
    request.pipeline = "swiglu";
    request.variants = {variant};
    request.problem.dimensions["N"] = 100003;
    request.settings.warmup = 1;
    request.settings.repeats = 5;
    QuietObserver observer;
    Result<RunReport> report = runPipeline(backend, request, observer);
    EXPECT_TRUE(report) << report.status().message();
    if (!report) return {};
    EXPECT_EQ(report->variants.size(), 1u);
    return report->variants.size() == 1 ? report->variants.front() : VariantResult{};
}

}  // namespace

TEST(ChainTiming, AChainIsTimedBackToBackBesideItsKernelsTimedApart) {
    OverlappingBackend backend(0.1);
    const VariantResult chain = runSwiglu(backend, "two_launch");
    ASSERT_GT(chain.kernels.size(), 1u);
    // Every repeat (not the warm-up) timed the chain once, and the variant's time is the chain's.
    EXPECT_EQ(backend.chainsTimed, 5);
    ASSERT_EQ(chain.repeatTimesMs.size(), 5u);
    EXPECT_EQ(chain.repeatTimesMs, backend.chainTimes);
    EXPECT_DOUBLE_EQ(chain.timeMs, medianOf(chain.repeatTimesMs));
    ASSERT_EQ(chain.kernelsApartTimesMs.size(), 5u);
    EXPECT_DOUBLE_EQ(chain.kernelsApartTimeMs, medianOf(chain.kernelsApartTimesMs));
    EXPECT_GT(chain.kernelsApartTimeMs, chain.timeMs);
}

TEST(ChainTiming, OneKernelIsNotTimedTwice) {
    OverlappingBackend backend(0.1);
    const VariantResult fused = runSwiglu(backend, "fused");
    ASSERT_EQ(fused.kernels.size(), 1u);
    EXPECT_EQ(backend.chainsTimed, 0);
    EXPECT_TRUE(fused.kernelsApartTimesMs.empty());
    EXPECT_DOUBLE_EQ(fused.kernelsApartTimeMs, fused.timeMs);
}

TEST(ChainTiming, WhereKernelsCannotOverlapTheChainIsItsKernels) {
    std::unique_ptr<Backend> cpu = createCpuBackend(2);
    EXPECT_FALSE(cpu->chainsCanOverlap());
    const VariantResult chain = runSwiglu(*cpu, "two_launch");
    ASSERT_FALSE(chain.kernels.empty());
    EXPECT_TRUE(chain.kernelsApartTimesMs.empty());
    EXPECT_DOUBLE_EQ(chain.kernelsApartTimeMs, chain.timeMs);
}

// A benchmark's repeats on a backend without its own: the warm-ups and then each repeat timed as a
// chain, and only the repeats' times returned, in order.
TEST(ChainTiming, RepeatsAreTheChainTimedAfterItsWarmUps) {
    OverlappingBackend backend(0.5);
    const PipelineSpec& swiglu = *findPipeline("swiglu");
    RunRequest request;
    request.pipeline = swiglu.name;
    request.variants = {"two_launch"};
    request.problem = swiglu.defaultProblem();
    request.problem.dimensions["N"] = 100003;
    const std::vector<const VariantSpec*> variants = selectedVariants(swiglu, request);
    const HostBuffers inputs =
        makeHostInputs(swiglu, variants, request.problem, request.settings.seed);
    AllocationTracker tracker(backend);
    Result<PreparedVariant> prepared =
        prepareVariant(backend, tracker, *variants.front(), request, inputs);
    ASSERT_TRUE(prepared) << prepared.status().message();
    Result<std::vector<double>> times = backend.timeRepeats(prepared->launches, 2, 3);
    ASSERT_TRUE(times) << times.status().message();
    EXPECT_EQ(backend.chainsTimed, 5);
    ASSERT_EQ(times->size(), 3u);
    EXPECT_EQ(*times,
              std::vector<double>(backend.chainTimes.begin() + 2, backend.chainTimes.end()));
    EXPECT_TRUE(prepared->release(*variants.front()));
}
