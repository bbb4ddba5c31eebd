// The CUDA backend called directly: device description, memory, launches, timing, resources.
// Each test skips with the reason when no GPU is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <regex>
#include <thread>
#include <vector>

#include "cuda_gpu_fixture.h"
#include "pipelines/registry.h"
#include "runtime/allocation_tracker.h"

using namespace fusescope;
using CudaBackendTest = fusescope::testing_support::GpuTest;

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

std::vector<float> ramp(std::uint64_t n) {
    std::vector<float> values(n);
    for (std::uint64_t i = 0; i < n; ++i) values[i] = static_cast<float>(i % 1000) * 0.25f - 100.0f;
    return values;
}

// Problems outlive the launches that point at them.
struct LaunchMaker {
    Backend& backend;
    std::deque<Problem> problems;

    const Problem& problem(std::uint64_t n, int width) {
        Problem& p = problems.emplace_back();
        p.dimensions["N"] = n;
        p.tuning["vector"] = width;
        return p;
    }
    KernelLaunch launch(const std::string& key, std::vector<void*> buffers, std::uint64_t n,
                        int width) {
        KernelLaunch made;
        Result<KernelExecution*> execution = backend.findExecution(key);
        made.execution = execution ? *execution : nullptr;
        made.call.problem = &problem(n, width);
        made.call.kernelName = key;
        made.call.buffers = std::move(buffers);
        return made;
    }
};

}  // namespace

TEST_F(CudaBackendTest, DescribesTheDevice) {
    EXPECT_EQ(backend->kind(), BackendKind::Cuda);
    const DeviceInfo device = backend->describe();
    EXPECT_EQ(device.backend, BackendKind::Cuda);
    EXPECT_FALSE(device.name.empty());
    EXPECT_GE(device.computeCapabilityMajor, 1);
    EXPECT_GT(device.multiprocessors, 0);
    EXPECT_GT(device.l2CacheBytes, 0u);
    EXPECT_GT(device.totalMemoryBytes, 0u);
    EXPECT_GT(device.freeMemoryBytes, 0u);
    EXPECT_LE(device.freeMemoryBytes, device.totalMemoryBytes);
    EXPECT_GT(device.theoreticalBandwidthGBps, 0.0);
    const std::regex version(R"(\d+\.\d+)");
    EXPECT_TRUE(std::regex_match(device.driverVersion, version)) << device.driverVersion;
    EXPECT_TRUE(std::regex_match(device.runtimeVersion, version)) << device.runtimeVersion;
}

TEST_F(CudaBackendTest, AnAllocationThatCannotFitIsOutOfMemoryAndLeavesNothingAllocated) {
    const std::uint64_t freeBefore = backend->describe().freeMemoryBytes;
    constexpr std::uint64_t kImpossible = 1ull << 62;

    Result<void*> direct = backend->allocate(kImpossible);
    ASSERT_FALSE(direct);
    EXPECT_EQ(direct.status().code(), ErrorCode::OutOfMemory);
    EXPECT_NE(direct.status().message().find("cudaErrorMemoryAllocation"), std::string::npos)
        << direct.status().message();

    AllocationTracker tracker(*backend);
    Result<TrackedBuffer> tracked = tracker.allocate("huge", kImpossible);
    ASSERT_FALSE(tracked);
    EXPECT_EQ(tracked.status().code(), ErrorCode::OutOfMemory);
    EXPECT_EQ(tracker.inFlightBytes(), 0u);
    EXPECT_TRUE(tracker.events().empty());

    // The failure is not sticky: the next allocation and kernel work.
    Result<TrackedBuffer> small = tracker.allocate("small", kMiB);
    ASSERT_TRUE(small) << small.status().message();
    EXPECT_TRUE(backend->fill(small->data(), 0, kMiB));
    EXPECT_TRUE(small->reset());
    EXPECT_EQ(tracker.inFlightBytes(), 0u);

    // Free memory moves only by the driver's page granularity, never by the failed request.
    const std::uint64_t freeAfter = backend->describe().freeMemoryBytes;
    EXPECT_GE(freeAfter + 16 * kMiB, freeBefore);
}

TEST_F(CudaBackendTest, UploadFillDownloadRoundTrip) {
    const std::uint64_t n = 1000003;
    const std::uint64_t bytes = n * sizeof(float);
    AllocationTracker tracker(*backend);
    Result<TrackedBuffer> buffer = tracker.allocate("buffer", bytes);
    ASSERT_TRUE(buffer) << buffer.status().message();

    const std::vector<float> values = ramp(n);
    ASSERT_TRUE(backend->upload(buffer->data(), values.data(), bytes));
    std::vector<float> back(n, 0.0f);
    ASSERT_TRUE(backend->download(back.data(), buffer->data(), bytes));
    EXPECT_EQ(back, values);

    ASSERT_TRUE(backend->fill(buffer->data(), 0xFF, bytes));
    std::vector<unsigned char> raw(bytes, 0);
    ASSERT_TRUE(backend->download(raw.data(), buffer->data(), bytes));
    EXPECT_EQ(std::count(raw.begin(), raw.end(), 0xFF), static_cast<std::ptrdiff_t>(bytes));
}

TEST_F(CudaBackendTest, TimeCopyCopiesAndTakesTime) {
    const std::uint64_t n = 16 * kMiB / sizeof(float);
    const std::uint64_t bytes = n * sizeof(float);
    AllocationTracker tracker(*backend);
    Result<TrackedBuffer> source = tracker.allocate("source", bytes);
    Result<TrackedBuffer> destination = tracker.allocate("destination", bytes);
    ASSERT_TRUE(source && destination);
    const std::vector<float> values = ramp(n);
    ASSERT_TRUE(backend->upload(source->data(), values.data(), bytes));
    ASSERT_TRUE(backend->fill(destination->data(), 0, bytes));

    Result<double> time = backend->timeCopy(destination->data(), source->data(), bytes);
    ASSERT_TRUE(time) << time.status().message();
    EXPECT_GT(*time, 0.0);
    std::vector<float> copied(n);
    ASSERT_TRUE(backend->download(copied.data(), destination->data(), bytes));
    EXPECT_EQ(copied, values);
}

TEST_F(CudaBackendTest, TimesEveryLaunchOfAChain) {
    const std::uint64_t n = 1000003;  // not a multiple of 4: the width-4 tail runs
    const std::uint64_t bytes = n * sizeof(float);
    AllocationTracker tracker(*backend);
    Result<TrackedBuffer> x = tracker.allocate("x", bytes);
    Result<TrackedBuffer> tmp = tracker.allocate("tmp", bytes);
    Result<TrackedBuffer> out = tracker.allocate("out", bytes);
    ASSERT_TRUE(x && tmp && out);
    const std::vector<float> values = ramp(n);
    ASSERT_TRUE(backend->upload(x->data(), values.data(), bytes));

    LaunchMaker maker{*backend, {}};
    for (int width : {1, 4}) {
        ASSERT_TRUE(backend->fill(out->data(), 0xFF, bytes));
        KernelLaunch mul2 = maker.launch("mul2", {x->data(), tmp->data()}, n, width);
        KernelLaunch add3 = maker.launch("add3", {tmp->data(), out->data()}, n, width);
        const std::vector<KernelLaunch> chain = {mul2, add3};
        Result<std::vector<double>> times = backend->timeLaunches(chain, TimedStart::AllEnqueued);
        ASSERT_TRUE(times) << times.status().message();
        ASSERT_EQ(times->size(), 2u);
        EXPECT_GT((*times)[0], 0.0);
        EXPECT_GT((*times)[1], 0.0);

        std::vector<float> result(n);
        ASSERT_TRUE(backend->download(result.data(), out->data(), bytes));
        for (std::uint64_t i = 0; i < n; ++i)
            ASSERT_FLOAT_EQ(result[i], values[i] * 2.0f + 3.0f) << "width " << width << " i " << i;
    }
}

// An execution whose enqueue is slow on the host, as a library call's can be.
class SlowToEnqueue final : public KernelExecution {
  public:
    explicit SlowToEnqueue(KernelExecution& inner) : inner_(inner) {}
    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return inner_.enqueue(target, call);
    }

  private:
    KernelExecution& inner_;
};

TEST_F(CudaBackendTest, HeldTimingsLeaveOutTheHostsTimeToEnqueue) {
    constexpr std::uint64_t n = 1 << 16;
    AllocationTracker tracker(*backend);
    Result<TrackedBuffer> x = tracker.allocate("x", n * sizeof(float));
    Result<TrackedBuffer> out = tracker.allocate("out", n * sizeof(float));
    ASSERT_TRUE(x && out);
    LaunchMaker maker{*backend, {}};
    KernelLaunch launch = maker.launch("mul2", {x->data(), out->data()}, n, 1);
    ASSERT_NE(launch.execution, nullptr);
    SlowToEnqueue slow(*launch.execution);
    launch.execution = &slow;
    const std::vector<KernelLaunch> twice = {launch, launch};

    // As enqueued, the second kernel's time includes the 5 ms its enqueue took on the host;
    // held, the GPU starts once both are enqueued and each takes microseconds.
    Result<std::vector<double>> asEnqueued = backend->timeLaunches(twice, TimedStart::AsEnqueued);
    Result<std::vector<double>> held = backend->timeLaunches(twice, TimedStart::AllEnqueued);
    Result<double> chain = backend->timeChain(twice);
    ASSERT_TRUE(asEnqueued && held && chain);
    EXPECT_GT(asEnqueued->at(0), 4.0);
    EXPECT_LT(held->at(0), 1.0);
    EXPECT_LT(held->at(1), 1.0);
    EXPECT_LT(*chain, 1.0);
}

TEST_F(CudaBackendTest, RejectsBadLaunchesBeforeLaunching) {
    AllocationTracker tracker(*backend);
    Result<TrackedBuffer> a = tracker.allocate("a", kMiB);
    Result<TrackedBuffer> b = tracker.allocate("b", kMiB);
    ASSERT_TRUE(a && b);
    auto* misaligned = static_cast<unsigned char*>(a->data()) + sizeof(float);

    LaunchMaker maker{*backend, {}};
    const std::vector<std::pair<KernelLaunch, std::string>> bad = {
        {maker.launch("affine_fused", {misaligned, b->data()}, 1000, 4), "16-byte aligned"},
        {maker.launch("affine_fused", {a->data(), nullptr}, 1000, 1), "null"},
        {maker.launch("affine_fused", {a->data()}, 1000, 1), "takes 2 buffers"},
        {maker.launch("affine_fused", {a->data(), b->data()}, 1000, 2), "no CUDA kernel"},
    };
    EXPECT_FALSE(backend->findExecution("no_such_kernel"));
    for (const auto& [launch, expected] : bad) {
        Result<std::vector<double>> times =
            backend->timeLaunches(std::span(&launch, 1), TimedStart::AllEnqueued);
        ASSERT_FALSE(times);
        EXPECT_EQ(times.status().code(), ErrorCode::InvalidArgument);
        EXPECT_NE(times.status().message().find(expected), std::string::npos)
            << times.status().message();
    }
    // A misaligned pointer is fine for 4-byte accesses, and the backend is still usable.
    const KernelLaunch scalar = maker.launch("affine_fused", {misaligned, b->data()}, 1000, 1);
    Result<std::vector<double>> times =
        backend->timeLaunches(std::span(&scalar, 1), TimedStart::AllEnqueued);
    ASSERT_TRUE(times) << times.status().message();
    EXPECT_TRUE(backend->settle());
}

TEST_F(CudaBackendTest, EveryElementwiseKernelHasKnownResourcesAndNoSpills) {
    const DeviceInfo device = backend->describe();
    LaunchMaker maker{*backend, {}};
    for (const PipelineSpec& pipeline : pipelines()) {
        if (!pipeline.countsPasses) continue;  // the elementwise kernels
        for (const VariantSpec& variant : pipeline.variants)
            for (const KernelSpec& kernel : variant.kernelsFor(pipeline.defaultProblem()))
                for (int width : {1, 4}) {
                    SCOPED_TRACE(kernel.name + " width " + std::to_string(width));
                    const KernelResources r =
                        backend->resources(maker.launch(kernel.execution, {}, 1u << 24, width));
                    ASSERT_TRUE(r.known);
                    EXPECT_GT(r.registersPerThread, 0);
                    EXPECT_EQ(r.localBytesPerThread, 0);  // no spills in these kernels
                    EXPECT_EQ(r.sharedBytesPerBlock, 0);
                    EXPECT_EQ(r.blockSize, 256);
                    EXPECT_GT(r.theoreticalOccupancy, 0.0);
                    EXPECT_LE(r.theoreticalOccupancy, 1.0);
                    const std::uint64_t items = width == 4 ? (1u << 24) / 4 : 1u << 24;
                    if (kernel.name == "swiglu_scratch" || width == 1) {
                        // Width 1 and the lab's two-loop kernel: one full wave of resident
                        // blocks on every SM, the same for any larger N, so that the loops sweep
                        // the array.
                        EXPECT_EQ(r.gridSize % device.multiprocessors, 0);
                        EXPECT_LT(static_cast<std::uint64_t>(r.gridSize), items / 256);
                        EXPECT_EQ(r.gridSize, backend
                                                  ->resources(maker.launch(kernel.execution, {},
                                                                           1ull << 33, width))
                                                  .gridSize);
                    } else {
                        // Every other kernel at width 4: one thread per float4 group.
                        EXPECT_EQ(static_cast<std::uint64_t>(r.gridSize), items / 256);
                    }
                }
    }
    EXPECT_FALSE(backend->resources(maker.launch("swiglu_fused", {}, 100, 2)).known);
}

TEST_F(CudaBackendTest, SmallNLaunchesFewBlocks) {
    // 1000 elements: 4 blocks of 256 one by one, 1 block for 250 float4 groups.
    LaunchMaker maker{*backend, {}};
    const auto grid = [&](std::uint64_t n, int width) {
        return backend->resources(maker.launch("swiglu_fused", {}, n, width)).gridSize;
    };
    EXPECT_EQ(grid(1000, 1), 4);
    EXPECT_EQ(grid(1000, 4), 1);
    EXPECT_EQ(grid(3, 4), 1);
    EXPECT_EQ(grid(1, 1), 1);
}
