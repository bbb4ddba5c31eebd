// A cancel takes effect inside long CPU work (a GEMM, a buffer fill), not only between kernels.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "pipelines/registry.h"
#include "runtime/backend.h"
#include "runtime/runner.h"
#include "support/cancel_during_stage.h"
#include "support/timing_slack.h"

using namespace fusescope;
using testsupport::CancelDuringStage;
using testsupport::Clock;
using testsupport::secondsBetween;

namespace {

// Runs `request` on the CPU backend with all threads, cancels `delay` after `stage` starts, and
// expects the run to return Cancelled within 0.5 s of the cancel (`what` names it in the log).
void expectCancelStopsWithinHalfASecond(const RunRequest& request, const char* stage,
                                        std::chrono::milliseconds delay, const char* what) {
    auto backend = createCpuBackend(0);
    CancelDuringStage observer(stage, delay);
    const Result<RunReport> report = runPipeline(*backend, request, observer);
    const Clock::time_point returned = Clock::now();
    observer.join();
    ASSERT_TRUE(observer.stageSeen());
    ASSERT_FALSE(report) << "the run ended before the cancel: make the problem larger";
    EXPECT_EQ(report.status().code(), ErrorCode::Cancelled) << report.status().message();
    const double latency = secondsBetween(observer.cancelledAt(), returned);
    std::printf("%s stopped %.3f s after the cancel\n", what, latency);
    EXPECT_LT(latency, 0.5 * testsupport::timingSlack());
}

}  // namespace

// The unfused MLP's first GEMM at this shape is 2 x 512 x 4096 x 2048 = 8.6 GFLOP: seconds on the
// CPU. The cancel comes while it runs (the first, checked run of the variant) and must stop it
// within 0.5 s, not when the GEMM ends.
TEST(CancelInsideKernels, CancelStopsALongCpuGemmWithinHalfASecond) {
    RunRequest request;
    request.pipeline = "mlp";
    request.variants = {"unfused"};
    request.problem.dimensions = {{"M", 512}, {"H", 2048}, {"I", 4096}};
    request.settings.repeats = 1;
    request.settings.warmup = 0;
    request.roofs = false;
    expectCancelStopsWithinHalfASecond(request, "checking unfused", std::chrono::milliseconds(300),
                                       "the GEMM");
}

// Fills, copies and kernels ask the backend's token: once it is set, each returns Cancelled.
TEST(CancelInsideKernels, FillAndCopyReturnCancelledOnceTheTokenIsSet) {
    auto backend = createCpuBackend(2);
    constexpr std::uint64_t kBytes = 64u << 20;
    Result<void*> a = backend->allocate(kBytes);
    Result<void*> b = backend->allocate(kBytes);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(backend->fill(*a, 0x11, kBytes));
    std::atomic<bool> cancel{true};
    backend->useCancelToken(CancelToken([&cancel] { return cancel.load(); }));
    EXPECT_EQ(backend->fill(*b, 0x22, kBytes).code(), ErrorCode::Cancelled);
    EXPECT_EQ(backend->copy(*b, *a, kBytes).code(), ErrorCode::Cancelled);
    const Result<double> copyTime = backend->timeCopy(*b, *a, kBytes);
    ASSERT_FALSE(copyTime);
    EXPECT_EQ(copyTime.status().code(), ErrorCode::Cancelled);
    // Taken back, the token no longer stops anything.
    backend->useCancelToken(CancelToken());
    EXPECT_TRUE(backend->fill(*b, 0x22, kBytes));
    EXPECT_TRUE(backend->release(*a));
    EXPECT_TRUE(backend->release(*b));
}

// The elementwise lesson at 2^25 elements: the cancel comes while the variant's buffers are
// poisoned or its first run goes, and the run stops within 0.5 s.
TEST(CancelInsideKernels, CancelStopsALargeElementwiseRunWithinHalfASecond) {
    RunRequest request;
    request.pipeline = "swiglu";
    request.problem.dimensions = {{"N", std::uint64_t{1} << 25}};
    request.settings.repeats = 50;
    request.settings.warmup = 0;
    request.roofs = false;
    expectCancelStopsWithinHalfASecond(request, "allocating", std::chrono::milliseconds(50),
                                       "the elementwise run");
}
