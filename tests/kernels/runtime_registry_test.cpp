// Pipelines registered while the program runs: registration, refusal, replacement with stable
// addresses, a described family's check, and a run of the three-step chain on the CPU backend.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "pipelines/described_pipeline.h"
#include "pipelines/element_program.h"
#include "pipelines/runtime_registry.h"
#include "platform/runtime_compiler.h"
#include "runtime/runner.h"
#include "support/runtime_chain.h"

using namespace fusescope;
using namespace fusescope::test;

namespace {

RuntimePipeline chainPipeline(const std::string& name = "runtime_chain") {
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(chainDescription(name));
    EXPECT_TRUE(pipeline) << pipeline.status().message();
    addChainCpuExecutions(*pipeline);
    return std::move(*pipeline);
}

bool listed(const std::string& name) {
    for (const PipelineSpec& spec : pipelines())
        if (spec.name == name) return true;
    return false;
}

RunReport runOnCpu(const std::string& pipeline, int width) {
    auto backend = createCpuBackend(2);
    // N is not a multiple of the vector width.
    const RunRequest request = chainRequest(100003, width, 2, 0, pipeline);
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    EXPECT_TRUE(report) << report.status().message();
    return report ? std::move(*report) : RunReport{};
}

}  // namespace

TEST(RuntimeRegistry, ARegisteredFamilyIsListedFoundAndUnregistered) {
    const std::size_t builtIn = pipelines().size();
    Result<const PipelineSpec*> spec = registerPipeline(chainPipeline());
    ASSERT_TRUE(spec) << spec.status().message();
    RegisteredForTest registered{"runtime_chain"};
    EXPECT_EQ(pipelines().size(), builtIn + 1);
    EXPECT_TRUE(listed("runtime_chain"));
    EXPECT_EQ(findPipeline("runtime_chain"), *spec);
    EXPECT_TRUE(isRuntimePipeline("runtime_chain"));
    EXPECT_FALSE(isBuiltInPipeline("runtime_chain"));
    ASSERT_TRUE(runtimePipelineDescription("runtime_chain"));
    EXPECT_EQ(*runtimePipelineDescription("runtime_chain"), chainDescription());

    EXPECT_TRUE(unregisterPipeline("runtime_chain"));
    EXPECT_EQ(findPipeline("runtime_chain"), nullptr);
    EXPECT_FALSE(listed("runtime_chain"));
    EXPECT_EQ(pipelines().size(), builtIn);
    // The address handed out stays valid after the family is gone.
    EXPECT_EQ((*spec)->name, "runtime_chain");
    EXPECT_FALSE(unregisterPipeline("runtime_chain"));
}

TEST(RuntimeRegistry, RefusesBuiltInNamesAndASecondRegistration) {
    for (const PipelineSpec& builtIn : pipelines()) {
        Result<const PipelineSpec*> clash = registerPipeline(chainPipeline(builtIn.name));
        ASSERT_FALSE(clash);
        EXPECT_NE(clash.status().message().find("built in"), std::string::npos);
        EXPECT_FALSE(replacePipeline(chainPipeline(builtIn.name)));
        EXPECT_FALSE(unregisterPipeline(builtIn.name));
    }
    ASSERT_TRUE(registerPipeline(chainPipeline()));
    RegisteredForTest registered{"runtime_chain"};
    Result<const PipelineSpec*> again = registerPipeline(chainPipeline());
    ASSERT_FALSE(again);
    EXPECT_NE(again.status().message().find("already registered"), std::string::npos);
}

TEST(RuntimeRegistry, ReplacingKeepsTheOldAddressValidAndRunsTheNewCode) {
    Result<const PipelineSpec*> first = registerPipeline(chainPipeline());
    ASSERT_TRUE(first);
    RegisteredForTest registered{"runtime_chain"};
    PipelineDescription edited = chainDescription();
    edited.title = "Edited chain";
    Result<RuntimePipeline> made = makePipelineFromDescription(edited);
    ASSERT_TRUE(made);
    addChainCpuExecutions(*made);
    Result<const PipelineSpec*> second = replacePipeline(std::move(*made));
    ASSERT_TRUE(second);
    EXPECT_NE(*first, *second);
    EXPECT_EQ(findPipeline("runtime_chain"), *second);
    EXPECT_EQ((*first)->title, "Three-step chain");
    EXPECT_EQ((*second)->title, "Edited chain");
    // Each registration's kernels run under keys of their own.
    const Problem problem = (*first)->defaultProblem();
    EXPECT_NE((*first)->variants.front().kernelsFor(problem).front().execution,
              (*second)->variants.front().kernelsFor(problem).front().execution);
}

TEST(RuntimeRegistry, TheChainRunsOnTheCpuAndCountsItsPasses) {
    ASSERT_TRUE(registerPipeline(chainPipeline()));
    RegisteredForTest registered{"runtime_chain"};
    for (int width : {1, 4}) {
        const RunReport report = runOnCpu("runtime_chain", width);
        ASSERT_EQ(report.variants.size(), 2u);
        const VariantResult& unfused = report.variants[0];
        const VariantResult& fused = report.variants[1];
        EXPECT_TRUE(unfused.check.ok) << unfused.check.error;
        EXPECT_TRUE(fused.check.ok) << fused.check.error;
        EXPECT_EQ(unfused.check.unwrittenElements, 0u);
        EXPECT_TRUE(unfused.passesCounted);
        // x->t, t y->u, u->out; and x y->out.
        EXPECT_EQ(unfused.passes, 7);
        EXPECT_EQ(fused.passes, 3);
        EXPECT_EQ(unfused.kernels.size(), 3u);
        EXPECT_EQ(fused.kernels.size(), 1u);
        EXPECT_EQ(unfused.modelBytesRead, 4u * 100003u * 4u);
        EXPECT_EQ(fused.modelBytesWritten, 100003u * 4u);
    }
}

TEST(RuntimeRegistry, AWrongCpuKernelFailsTheDescribedCheck) {
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(chainDescription());
    ASSERT_TRUE(pipeline);
    addChainCpuExecutions(*pipeline);
    // The fused kernel forgets to square.
    pipeline->cpuExecutions[describedExecutionKey("fused", "chain_fused")] = [] {
        return makeElementwiseCpuExecution("chain_fused", [](int, CpuInstructionSet) {
            return mapRange<2>([](float x, float y) { return x * 2.0f + y; });
        });
    };
    ASSERT_TRUE(registerPipeline(std::move(*pipeline)));
    RegisteredForTest registered{"runtime_chain"};
    const RunReport report = runOnCpu("runtime_chain", 4);
    ASSERT_EQ(report.variants.size(), 2u);
    EXPECT_TRUE(report.variants[0].check.ok);
    EXPECT_FALSE(report.variants[1].check.ok);
}

// Every output a variant writes is checked: a kernel that writes the second of two outputs
// wrong fails the run's check, which names that output and an element of it.
TEST(RuntimeRegistry, AWrongSecondOutputFailsTheCheckByName) {
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(twoOutputDescription());
    ASSERT_TRUE(pipeline) << pipeline.status().message();
    addTwoOutputCpuExecutions(*pipeline);
    ASSERT_TRUE(registerPipeline(std::move(*pipeline)));
    RegisteredForTest registered{"two_outputs"};
    const RunReport report = runOnCpu("two_outputs", 4);
    ASSERT_EQ(report.variants.size(), 2u);
    const CheckResult& right = report.variants[0].check;
    EXPECT_TRUE(right.ok) << right.wrongOutput;
    EXPECT_EQ(right.comparedElements, 2u * 100003u);
    const CheckResult& wrong = report.variants[1].check;
    EXPECT_FALSE(wrong.ok);
    EXPECT_EQ(wrong.wrongOutput, "shifted");
    EXPECT_FALSE(wrong.wrongElement.unwritten);
    EXPECT_NEAR(wrong.wrongElement.got - wrong.wrongElement.expected, 1.0, 1e-5);
    EXPECT_LT(wrong.wrongElement.index, 100003u);
}

TEST(RuntimeRegistry, AKernelWithoutCpuCodeIsRefusedByName) {
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(chainDescription());
    ASSERT_TRUE(pipeline);  // no CPU executions given
    ASSERT_TRUE(registerPipeline(std::move(*pipeline)));
    RegisteredForTest registered{"runtime_chain"};
    auto backend = createCpuBackend(1);
    const RunRequest request = chainRequest(1000);
    RunObserver observer;
    Result<RunReport> report = runPipeline(*backend, request, observer);
    ASSERT_FALSE(report);
    EXPECT_NE(report.status().message().find("has no code for"), std::string::npos)
        << report.status().message();
}

TEST(RuntimeRegistry, RegistersFromBothThreadsAtOnce) {
    const auto churn = [](const std::string& name) {
        for (int i = 0; i < 50; ++i) {
            Result<RuntimePipeline> pipeline = makePipelineFromDescription(chainDescription(name));
            ASSERT_TRUE(pipeline);
            ASSERT_TRUE(replacePipeline(std::move(*pipeline)));
            for (const PipelineSpec& spec : pipelines()) ASSERT_FALSE(spec.name.empty());
        }
        ASSERT_TRUE(unregisterPipeline(name));
    };
    std::thread worker(churn, "chain_on_worker");
    churn("chain_on_ui");
    worker.join();
    EXPECT_EQ(findPipeline("chain_on_worker"), nullptr);
    EXPECT_EQ(findPipeline("chain_on_ui"), nullptr);
}

// NVRTC needs no GPU: every described kernel compiles at both vector widths for the H200
// (sm_90), and a broken source fails with the compiler's message. Skips where NVRTC is missing.
TEST(DescribedPipeline, EveryKernelCompilesWithNvrtcAtBothWidths) {
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    if (!nvrtc) GTEST_SKIP() << nvrtc.status().message();
    for (const DescribedVariant& variant : chainDescription().variants)
        for (const DescribedKernel& kernel : variant.kernels)
            for (int width : kSupportedVectorWidths) {
                std::string log;
                Result<std::vector<unsigned char>> image =
                    (*nvrtc)->compile(describedKernelCompileRequest(kernel, width, "sm_90"), log);
                EXPECT_TRUE(image)
                    << kernel.name << " width " << width << ": " << image.status().message();
                EXPECT_TRUE(image && !image->empty()) << kernel.name;
            }
    DescribedKernel broken = chainDescription().variants[1].kernels[0];
    broken.cudaSource += "\nthis_is_not_cuda;\n";
    std::string log;
    Result<std::vector<unsigned char>> image =
        (*nvrtc)->compile(describedKernelCompileRequest(broken, 4, "sm_90"), log);
    ASSERT_FALSE(image);
    EXPECT_NE((image.status().message() + log).find("this_is_not_cuda"), std::string::npos)
        << image.status().message();
}

TEST(DescribedPipeline, RefusesDescriptionsWhoseNamesDisagree) {
    const auto refusal = [](PipelineDescription description) {
        Result<RuntimePipeline> made = makePipelineFromDescription(description);
        return made ? std::string() : made.status().message();
    };
    PipelineDescription d = chainDescription();
    d.variants[0].kernels[1].args.push_back("missing");
    EXPECT_NE(refusal(d).find("'missing'"), std::string::npos);
    d = chainDescription();
    d.variants[1].buffers = {"x", "out"};  // lacks input y
    EXPECT_NE(refusal(d).find("lacks buffer 'y'"), std::string::npos);
    d = chainDescription();
    d.check.reference.assignments.pop_back();  // assigns no out
    EXPECT_NE(refusal(d).find("assigns no 'out'"), std::string::npos);
    d = chainDescription();
    d.check.reference.assignments[1].value.op = "pow";
    EXPECT_NE(refusal(d).find("unknown operator 'pow'"), std::string::npos);
    d = chainDescription();
    d.check.reference.assignments[0].value = refTo("z");
    EXPECT_NE(refusal(d).find("'z' is neither"), std::string::npos);
    d = chainDescription();
    d.family = "gemm";
    EXPECT_NE(refusal(d).find("only 'elementwise'"), std::string::npos);
    d = chainDescription();
    d.buffers[0].low = d.buffers[0].high;
    EXPECT_NE(refusal(d).find("value range"), std::string::npos);
    EXPECT_EQ(refusal(chainDescription()), "");
}

TEST(ElementProgram, EvaluatesEveryOperatorInDouble) {
    const float x[] = {0.5f, -1.5f};
    const float* inputs[] = {x};
    const auto value = [&](ElementExpression expression, std::uint64_t i) {
        ElementProgram program{{{"r", std::move(expression)}}};
        Result<EvaluableProgram> compiled = compileElementProgram(program, {"x"}, "r");
        EXPECT_TRUE(compiled) << compiled.status().message();
        return compiled ? compiled->evaluate(inputs, i) : 0.0;
    };
    const auto unary = [](const char* op) { return ElementExpression{op, 0.0, "", {refTo("x")}}; };
    EXPECT_DOUBLE_EQ(value(unary("neg"), 0), -0.5);
    EXPECT_DOUBLE_EQ(value(unary("exp"), 0), std::exp(0.5));
    EXPECT_DOUBLE_EQ(value(unary("log"), 0), std::log(0.5));
    EXPECT_DOUBLE_EQ(value(unary("sqrt"), 0), std::sqrt(0.5));
    EXPECT_DOUBLE_EQ(value(unary("rsqrt"), 0), 1.0 / std::sqrt(0.5));
    EXPECT_DOUBLE_EQ(value(unary("sigmoid"), 1), 1.0 / (1.0 + std::exp(1.5)));
    EXPECT_DOUBLE_EQ(value(unary("silu"), 1), -1.5 / (1.0 + std::exp(1.5)));
    EXPECT_DOUBLE_EQ(value(unary("tanh"), 1), std::tanh(-1.5));
    EXPECT_DOUBLE_EQ(value(unary("gelu"), 1), -0.75 * (1.0 + std::erf(-1.5 / std::sqrt(2.0))));
    EXPECT_DOUBLE_EQ(value(unary("abs"), 1), 1.5);
    EXPECT_DOUBLE_EQ(value(binary("sub", refTo("x"), constant(2)), 1), -3.5);
    EXPECT_DOUBLE_EQ(value(binary("div", refTo("x"), constant(4)), 1), -0.375);
    EXPECT_DOUBLE_EQ(value(binary("min", refTo("x"), constant(0)), 0), 0.0);
    EXPECT_DOUBLE_EQ(value(binary("max", refTo("x"), constant(0)), 0), 0.5);
    // Earlier assignments are values, not re-evaluated text.
    ElementProgram chain{{{"t", binary("mul", refTo("x"), constant(2))},
                          {"r", binary("add", refTo("t"), refTo("t"))}}};
    Result<EvaluableProgram> compiled = compileElementProgram(chain, {"x"}, "r");
    ASSERT_TRUE(compiled);
    EXPECT_DOUBLE_EQ(compiled->evaluate(inputs, 1), -6.0);
}

TEST(ElementProgram, RefusesDeepTreesAndReassignedNames) {
    ElementExpression deep = refTo("x");
    for (int i = 0; i <= kMaxElementExpressionDepth + 1; ++i)
        deep = ElementExpression{"neg", 0.0, "", {deep}};
    Result<EvaluableProgram> tooDeep = compileElementProgram({{{"r", deep}}}, {"x"}, "r");
    ASSERT_FALSE(tooDeep);
    EXPECT_NE(tooDeep.status().message().find("deeper"), std::string::npos);
    Result<EvaluableProgram> twice =
        compileElementProgram({{{"r", refTo("x")}, {"r", refTo("x")}}}, {"x"}, "r");
    EXPECT_FALSE(twice);
    Result<EvaluableProgram> overInput = compileElementProgram({{{"x", constant(1)}}}, {"x"}, "x");
    EXPECT_FALSE(overInput);
}

// A built-in family with a variant added (a learner's kernel, described as data): found and
// listed in the built-in's place with its variants first, their code where it was, and gone
// again once unregistered. An extension that drops a built-in variant or names an input the
// built-in lacks is refused.
TEST(RuntimeRegistry, ABuiltInFamilyExtendedShowsInItsPlaceUntilUnregistered) {
    const PipelineSpec& builtIn = *findBuiltInPipeline("affine");
    PipelineDescription added;
    added.name = builtIn.name;
    added.extendsBuiltIn = true;
    const BufferSpec& input = builtIn.variants.front().buffers.front();
    ASSERT_EQ(input.role, BufferRole::Input);
    added.buffers = {{input.name, BufferRole::Input, input.low, input.high},
                     {"result", BufferRole::Output, 0.0f, 0.0f}};
    added.check.output = "result";
    DescribedKernel kernel;
    kernel.name = "k";
    kernel.reads = {input.name};
    kernel.writes = {"result"};
    DescribedVariant variant;
    variant.name = "mine";
    variant.fused = true;
    variant.buffers = {input.name, "result"};
    variant.kernels = {kernel};
    added.variants.push_back(variant);
    Result<const PipelineSpec*> extended = registerDescribedPipeline(added);
    ASSERT_TRUE(extended) << extended.status().message();
    EXPECT_EQ(findPipeline("affine"), *extended);
    EXPECT_NE(*extended, &builtIn);
    EXPECT_TRUE(isRuntimePipeline("affine"));
    EXPECT_EQ(runtimePipelineDescription("affine"), added);
    ASSERT_EQ((*extended)->variants.size(), builtIn.variants.size() + 1);
    const Problem problem = builtIn.defaultProblem();
    for (std::size_t v = 0; v < builtIn.variants.size(); ++v)
        EXPECT_EQ((*extended)->variants[v].kernelsFor(problem).front().execution,
                  builtIn.variants[v].kernelsFor(problem).front().execution);
    const VariantSpec* mine = findVariant(**extended, "mine");
    ASSERT_TRUE(mine);
    EXPECT_EQ(mine->kernelsFor(problem).front().passes(), 2);
    std::size_t listedAffine = 0;
    for (const PipelineSpec& spec : pipelines())
        if (spec.name == "affine") listedAffine += findVariant(spec, "mine") ? 1 : 10;
    EXPECT_EQ(listedAffine, 1u);

    ASSERT_TRUE(unregisterPipeline("affine"));
    EXPECT_EQ(findPipeline("affine"), &builtIn);
    EXPECT_FALSE(unregisterPipeline("affine"));

    PipelineDescription foreign = added;
    foreign.buffers.front().name = "nothing_of_affine";
    foreign.variants.front().buffers.front() = "nothing_of_affine";
    foreign.variants.front().kernels.front().reads = {"nothing_of_affine"};
    EXPECT_FALSE(registerDescribedPipeline(foreign));
    RuntimePipeline dropped;
    dropped.spec = builtIn;
    dropped.spec.variants.erase(dropped.spec.variants.begin());
    dropped.spec.variants.push_back(*mine);
    EXPECT_FALSE(extendBuiltInPipeline(std::move(dropped)));
    EXPECT_EQ(findPipeline("affine"), &builtIn);
}
