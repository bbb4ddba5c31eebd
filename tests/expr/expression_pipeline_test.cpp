// A chain registered as a pipeline family and run through the runner on the CPU backend: every
// variant at both widths passes its check, the passes are the ledger's, a wrong kernel fails
// the check; the description keeps the text and its reference program agrees with ours.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
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

// Host copies of outputs, by name, as the runner hands them to the check.
HostBuffers outputsOf(const std::vector<std::pair<std::string, std::vector<float>>>& arrays) {
    HostBuffers outputs;
    for (const auto& [name, values] : arrays) {
        outputs.names.push_back(name);
        outputs.values.emplace_back(values.size() * sizeof(float));
        std::memcpy(outputs.values.back().data(), values.data(), values.size() * sizeof(float));
    }
    return outputs;
}

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

// A chain registered, with its problem at n elements and its inputs filled, for its check.
struct CheckedChain {
    const PipelineSpec* spec = nullptr;
    Problem problem;
    HostBuffers inputs;
};

CheckedChain checkedChain(const std::string& text, std::uint64_t n) {
    CheckedChain chain;
    if (!registerExpression(text)) return chain;
    chain.spec = findPipeline(kName);
    chain.problem = chain.spec->defaultProblem();
    chain.problem.dimensions["N"] = n;
    std::vector<const BufferSpec*> inputs;
    for (const BufferSpec& buffer : chain.spec->variants.front().buffers)
        if (buffer.role == BufferRole::Input) inputs.push_back(&buffer);
    chain.inputs = chain.spec->makeInputs(chain.problem, inputs, 3, {});
    return chain;
}

TEST(ExpressionPipeline, TheCheckFailsOutputsOfAnotherChain) {
    const Unregister unregister;
    const auto [spec, problem, host] = checkedChain("out = silu(g) * u", 4096);
    ASSERT_NE(spec, nullptr);
    const float* g = reinterpret_cast<const float*>(host.find("g")->data());
    const float* u = reinterpret_cast<const float*>(host.find("u")->data());
    std::vector<float> right(4096), wrong(4096);
    for (std::size_t i = 0; i < right.size(); ++i) {
        const double sigmoid = 1.0 / (1.0 + std::exp(-static_cast<double>(g[i])));
        right[i] = static_cast<float>(g[i] * sigmoid * u[i]);
        wrong[i] = static_cast<float>(sigmoid * u[i]);  // sigmoid where silu was asked
    }
    EXPECT_TRUE(spec->check(problem, host, outputsOf({{"out", right}}), {}).ok);
    const CheckResult failed = spec->check(problem, host, outputsOf({{"out", wrong}}), {});
    EXPECT_FALSE(failed.ok);
    EXPECT_GT(failed.error, failed.tolerance * 100);
}

// Each output of a chain that writes two is checked: a wrong element in either fails the check,
// which names the output, the element, what it should hold and what it holds.
TEST(ExpressionPipeline, EveryOutputOfAChainIsChecked) {
    const Unregister unregister;
    constexpr std::size_t kN = 4096;
    const auto [spec, problem, host] = checkedChain("doubled = x * 2; shifted = x + 3", kN);
    ASSERT_NE(spec, nullptr);
    for (const VariantSpec& variant : spec->variants) {
        int outputs = 0;
        for (const BufferSpec& buffer : variant.buffers)
            outputs += buffer.role == BufferRole::Output ? 1 : 0;
        EXPECT_EQ(outputs, 2) << variant.name;
    }
    const float* xs = reinterpret_cast<const float*>(host.find("x")->data());
    std::vector<float> doubled(kN), shifted(kN);
    for (std::size_t i = 0; i < kN; ++i) {
        doubled[i] = xs[i] * 2.0f;
        shifted[i] = xs[i] + 3.0f;
    }
    const CheckResult right =
        spec->check(problem, host, outputsOf({{"doubled", doubled}, {"shifted", shifted}}), {});
    EXPECT_TRUE(right.ok) << right.wrongOutput;
    EXPECT_EQ(right.comparedElements, 2 * kN);
    EXPECT_TRUE(right.wrongOutput.empty());

    constexpr std::size_t kWrong = 1717;
    for (const std::string wrongOutput : {"doubled", "shifted"}) {
        SCOPED_TRACE(wrongOutput);
        std::vector<float> first = doubled, second = shifted;
        std::vector<float>& broken = wrongOutput == "doubled" ? first : second;
        const float expected = broken[kWrong];
        broken[kWrong] = expected + 1.0f;
        const CheckResult failed =
            spec->check(problem, host, outputsOf({{"doubled", first}, {"shifted", second}}), {});
        EXPECT_FALSE(failed.ok);
        EXPECT_EQ(failed.wrongOutput, wrongOutput);
        EXPECT_EQ(failed.wrongElement.index, kWrong);
        EXPECT_NEAR(failed.wrongElement.expected, expected, 1e-5);
        EXPECT_EQ(failed.wrongElement.got, static_cast<double>(expected + 1.0f));
        EXPECT_FALSE(failed.wrongElement.unwritten);
    }

    // An element no kernel wrote (the poison) in the first output is found too.
    std::vector<float> unwritten = doubled;
    std::memset(&unwritten[42], kPoisonByte, sizeof(float));
    const CheckResult failed =
        spec->check(problem, host, outputsOf({{"doubled", unwritten}, {"shifted", shifted}}), {});
    EXPECT_FALSE(failed.ok);
    EXPECT_EQ(failed.unwrittenElements, 1u);
    EXPECT_EQ(failed.wrongOutput, "doubled");
    EXPECT_EQ(failed.wrongElement.index, 42u);
    EXPECT_TRUE(failed.wrongElement.unwritten);
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
