// A chain registered as a pipeline family and run through the runner on the CPU backend: every
// variant at both widths passes its check, the passes are the ledger's, a wrong kernel fails
// the check; the description keeps the text and its reference program agrees with ours.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "expr/expression_pipeline.h"
#include "expr/ledger.h"
#include "expr/reference.h"
#include "parsed_program.h"
#include "pipelines/described_pipeline.h"
#include "pipelines/element_program.h"
#include "pipelines/elementwise_family.h"
#include "pipelines/runtime_registry.h"
#include "runtime/backend.h"
#include "runtime/runner.h"
#include "support/cancel_during_stage.h"
#include "support/elementwise_request.h"
#include "support/timing_slack.h"

namespace fusescope::expr {
namespace {

const std::string kName(kExpressionPipelineName);

struct Unregister {
    ~Unregister() { (void)unregisterPipeline(kName); }
};

Result<RunReport> runExpression(const std::string& text, std::uint64_t n, int width) {
    Result<const PipelineSpec*> registered = registerExpression(text);
    if (!registered) return registered.status();
    auto backend = createCpuBackend(2);
    const RunRequest request = testsupport::elementwiseRequest(kName, n, width, 1, 0);
    RunObserver observer;
    return runPipeline(*backend, request, observer);
}

TEST(ExpressionPipeline, EveryVariantRunsAndPassesOnTheCpuBackend) {
    const Unregister unregister;
    const char* const chains[] = {
        "out = x * 2 + 3",
        "out = silu(g) * u",
        "y = (x - m) * rsqrt(v + 1e-5) * w + b",
        "t = x * 2 | s = t + 3; out2 = t - 1; out = s * s",
        "param k = 0.5; a = gelu(x) * k | out = tanh(a) + exp(-abs(a)) / max(a, 1)",
    };
    for (const char* text : chains) {
        const Program program = parsed(text);
        for (const int width : {1, 4}) {
            SCOPED_TRACE(std::string(text) + " / width " + std::to_string(width));
            const std::uint64_t n = 100003;
            Result<RunReport> report = runExpression(text, n, width);
            ASSERT_TRUE(report) << report.status().message();
            const std::vector<Strategy> strategies = strategiesOf(program);
            ASSERT_EQ(report->variants.size(), strategies.size());
            for (std::size_t v = 0; v < strategies.size(); ++v) {
                const VariantResult& variant = report->variants[v];
                EXPECT_EQ(variant.variant, strategyName(strategies[v]));
                EXPECT_TRUE(variant.check.ok) << variant.variant << ": " << variant.check.error
                                              << " > " << variant.check.tolerance << ", "
                                              << variant.check.unwrittenElements << " unwritten";
                const Ledger ledger =
                    predictLedger(program, planVariant(program, strategies[v]), n);
                EXPECT_EQ(variant.passes, ledger.passes) << variant.variant;
                EXPECT_EQ(variant.kernels.size(), ledger.kernels.size()) << variant.variant;
                EXPECT_EQ(variant.peakBytesInFlight, ledger.peakBytesInFlight) << variant.variant;
            }
        }
    }
}

TEST(ExpressionPipeline, AParseErrorIsRefusedWithItsPosition) {
    const Result<const PipelineSpec*> registered = registerExpression("out = silu(g) *");
    ASSERT_FALSE(registered);
    EXPECT_EQ(registered.status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(registered.status().message().find("at character 16:"), 0u)
        << registered.status().message();
}

TEST(ExpressionPipeline, TheCheckFailsOutputsOfAnotherChain) {
    const Unregister unregister;
    ASSERT_TRUE(registerExpression("out = silu(g) * u"));
    const PipelineSpec* spec = findPipeline(kName);
    ASSERT_NE(spec, nullptr);
    Problem problem = spec->defaultProblem();
    problem.dimensions["N"] = 4096;
    std::vector<const BufferSpec*> inputs;
    for (const BufferSpec& buffer : spec->variants.front().buffers)
        if (buffer.role == BufferRole::Input) inputs.push_back(&buffer);
    const HostBuffers host = spec->makeInputs(problem, inputs, 3, {});
    const float* g = reinterpret_cast<const float*>(host.find("g")->data());
    const float* u = reinterpret_cast<const float*>(host.find("u")->data());
    std::vector<float> right(4096), wrong(4096);
    for (std::size_t i = 0; i < right.size(); ++i) {
        const double sigmoid = 1.0 / (1.0 + std::exp(-static_cast<double>(g[i])));
        right[i] = static_cast<float>(g[i] * sigmoid * u[i]);
        wrong[i] = static_cast<float>(sigmoid * u[i]);  // sigmoid where silu was asked
    }
    EXPECT_TRUE(spec->check(problem, host, right.data(), {}).ok);
    const CheckResult failed = spec->check(problem, host, wrong.data(), {});
    EXPECT_FALSE(failed.ok);
    EXPECT_GT(failed.error, failed.tolerance * 100);
}

TEST(ExpressionPipeline, TheDescriptionKeepsTheTextAndAnAgreeingReference) {
    const std::string text = "param k = 0.5; a = gelu(x) * k + sigmoid(y) | out = tanh(a) - y";
    const Program program = parsed(text);
    const PipelineDescription description = describeExpression(program, "described");
    EXPECT_EQ(description.formula, text);
    ASSERT_EQ(description.variants.size(), 3u);
    EXPECT_EQ(description.variants[2].name, "split");
    EXPECT_EQ(description.check.output, "out");
    // The element program a reopened recording checks by gives our reference's values.
    Result<EvaluableProgram> reference =
        compileElementProgram(description.check.reference, program.inputs, "out");
    ASSERT_TRUE(reference) << reference.status().message();
    std::vector<float> x(1000), y(1000);
    fillUniform(x.data(), x.size(), 1, 1, -4.0f, 4.0f);
    fillUniform(y.data(), y.size(), 1, 2, -4.0f, 4.0f);
    const float* inputs[] = {x.data(), y.data()};
    for (std::uint64_t i = 0; i < x.size(); ++i) {
        ReferenceValue ours;
        evaluateReference(program, inputs, i, &ours);
        EXPECT_NEAR(reference->evaluate(inputs, i), ours.value, 1e-12 * (1 + std::abs(ours.value)))
            << i;
    }
    // The description registers as it is (what opening a recording does), CUDA kernels and all.
    Result<RuntimePipeline> made = makePipelineFromDescription(description);
    ASSERT_TRUE(made) << made.status().message();
    // Unfused: gelu, *, sigmoid, +, tanh, -; fused: 1; split: 2.
    EXPECT_EQ(made->cudaExecutions.size(), 6u + 1u + 2u);
}

// Thirteen scalar operations an element, eleven transcendental, on one thread: seconds for the run,
// so a cancel lands inside the kernel; its blocks are sized by the operations, so it stops in time.
TEST(ExpressionPipeline, CancelStopsALongChainWithinHalfASecond) {
    if (testsupport::timingSlack() > 1.0)
        GTEST_SKIP() << "instrumented builds are checked for the result, release for the time";
    const Unregister unregister;
    ASSERT_TRUE(registerExpression(
        "a = gelu(x); b = tanh(a) * exp(a); c = gelu(b) + silu(a); d = tanh(c) * sigmoid(b); "
        "out = gelu(d) + silu(c)"));
    auto backend = createCpuBackend(1);
    RunRequest request;
    request.pipeline = kName;
    request.variants = {"fused"};
    request.problem.dimensions["N"] = std::uint64_t{1} << 24;
    request.problem.tuning["vector"] = 1;
    request.settings.repeats = 20;
    request.settings.warmup = 0;
    request.roofs = false;
    testsupport::CancelDuringStage observer("checking fused", std::chrono::milliseconds(100));
    const Result<RunReport> report = runPipeline(*backend, request, observer);
    const testsupport::Clock::time_point returned = testsupport::Clock::now();
    observer.join();
    ASSERT_TRUE(observer.stageSeen());
    ASSERT_FALSE(report);
    EXPECT_EQ(report.status().code(), ErrorCode::Cancelled) << report.status().message();
    const double latency = testsupport::secondsBetween(observer.cancelledAt(), returned);
    std::printf("the chain stopped %.3f s after the cancel\n", latency);
    EXPECT_LT(latency, 0.5 * testsupport::timingSlack());
}

}  // namespace
}  // namespace fusescope::expr
