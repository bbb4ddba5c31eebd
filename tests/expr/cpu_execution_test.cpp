// Every variant of the lesson's chains and of chains of our own, run on the CPU at vector widths
// 1 and 4 over a length with a ragged end, checked against the double reference; a wrong result
// is caught where it is; a cancel stops a run.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "expr/cpu_kernel.h"
#include "expr/parser.h"
#include "expr/reference.h"
#include "parsed_program.h"
#include "pipelines/elementwise_family.h"
#include "pipelines/registry.h"

namespace fusescope::expr {
namespace {

constexpr std::uint64_t kN = 100003;  // not a multiple of a chunk, a block or 4

// The arrays of a plan, inputs filled in the chain's range, the rest poisoned.
struct Arrays {
    std::vector<std::vector<float>> values;

    Arrays(const Program& program, const VariantPlan& plan, std::uint64_t n) {
        const InputRange range = inputRange(program);
        for (std::size_t a = 0; a < plan.arrays.size(); ++a) {
            values.emplace_back(n);
            if (plan.arrays[a].role == ArrayRole::Input)
                fillUniform(values.back().data(), n, 7, static_cast<std::uint32_t>(a), range.low,
                            range.high);
            else
                std::memset(values.back().data(), kPoisonByte, n * sizeof(float));
        }
    }
    std::vector<const float*> inputs(const VariantPlan& plan) const {
        std::vector<const float*> pointers;
        for (std::size_t a = 0; a < plan.arrays.size(); ++a)
            if (plan.arrays[a].role == ArrayRole::Input) pointers.push_back(values[a].data());
        return pointers;
    }
};

Status runPlan(const Program& program, const VariantPlan& plan, Arrays& arrays,
               const CpuKernelRun& run) {
    for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
        std::vector<void*> args;
        for (int array : plan.kernels[k].reads) args.push_back(arrays.values[array].data());
        for (const PlanWrite& write : plan.kernels[k].writes)
            args.push_back(arrays.values[write.array].data());
        if (Status s = runCpuKernel(program, plan, static_cast<int>(k), args.data(), run); !s)
            return s;
    }
    return Status::ok();
}

const char* const kChains[] = {
    "out = x * 2 + 3",
    "out = silu(g) * u",
    "y = (x - m) * rsqrt(v + 1e-5) * w + b",
    "t = x * 2 | s = t + 3; out = s * s; out2 = t - 1",
    "param alpha = -0.25; a = exp(x) * alpha + log(y) - sqrt(z) / rsqrt(w) | "
    "out = min(abs(a), max(a, -a)) * sigmoid(a)",
    "out = gelu(x) + tanh(y) * tanh(x * 0.01) - x / (1 + exp(-y)) | o3 = -x; out2 = o3 * 2",
    // 16 operations.
    "a = x * y + z; b = a * a - x; c = exp(-b * b) | d = c * z + y / (abs(x) + 1); "
    "out = silu(d) * tanh(a) + c",
};

TEST(ExpressionCpuExecution, EveryVariantMatchesTheReferenceAtBothWidths) {
    for (const char* text : kChains) {
        const Program program = parsed(text);
        for (const Strategy strategy : strategiesOf(program)) {
            const VariantPlan plan = planVariant(program, strategy);
            for (const int width : {1, 4}) {
                for (const CpuInstructionSet set :
                     {CpuInstructionSet::Baseline, bestCpuInstructionSet()}) {
                    SCOPED_TRACE(std::string(text) + " / " + std::string(strategyName(strategy)) +
                                 " / width " + std::to_string(width) + " / " +
                                 std::string(cpuInstructionSetName(set)));
                    Arrays arrays(program, plan, kN);
                    ASSERT_TRUE(runPlan(program, plan, arrays, {kN, width, 3, set, {}}));
                    const std::vector<const float*> inputs = arrays.inputs(plan);
                    for (std::size_t o = 0; o < program.outputs.size(); ++o) {
                        const int array = plan.homeOf(program.outputs[o].operation);
                        // The output's own array (another output may hold the same value).
                        int own = array;
                        for (std::size_t a = 0; a < plan.arrays.size(); ++a)
                            if (plan.arrays[a].role == ArrayRole::Output &&
                                plan.arrays[a].name == program.outputs[o].name)
                                own = static_cast<int>(a);
                        const ExpressionCheck check =
                            checkOutput(program, static_cast<int>(o), inputs.data(),
                                        arrays.values[own].data(), kN);
                        EXPECT_TRUE(check.ok)
                            << program.outputs[o].name << ": " << check.worstRoundings
                            << " roundings at " << check.worstIndex << " (expected "
                            << check.expectedThere << ", got " << check.actualThere << "), "
                            << check.unwrittenElements << " unwritten";
                        EXPECT_EQ(check.comparedElements, kN);
                    }
                }
            }
        }
    }
}

TEST(ExpressionCpuExecution, TheCheckFindsAWrongOperationAndAnUnwrittenTail) {
    // Values of x * 2 - 3 checked as x * 2 + 3: wrong everywhere.
    const Program right = parsed("out = x * 2 + 3");
    const Program wrong = parsed("out = x * 2 - 3");
    const VariantPlan plan = planVariant(wrong, Strategy::Fused);
    Arrays arrays(wrong, plan, kN);
    ASSERT_TRUE(runPlan(wrong, plan, arrays, {kN, 4, 2, CpuInstructionSet::Baseline, {}}));
    const std::vector<const float*> inputs = arrays.inputs(plan);
    const ExpressionCheck check = checkOutput(right, 0, inputs.data(), arrays.values[1].data(), kN);
    EXPECT_FALSE(check.ok);
    EXPECT_GT(check.worstRoundings, 1000.0);
    EXPECT_NEAR(check.expectedThere - check.actualThere, 6.0, 1e-5);

    // The right values, with the last three elements never written.
    const VariantPlan rightPlan = planVariant(right, Strategy::Fused);
    Arrays rightArrays(right, rightPlan, kN);
    CpuKernelRun shortRun{kN - 3, 4, 2, CpuInstructionSet::Baseline, {}};
    ASSERT_TRUE(runPlan(right, rightPlan, rightArrays, shortRun));
    const std::vector<const float*> rightInputs = rightArrays.inputs(rightPlan);
    const ExpressionCheck tail =
        checkOutput(right, 0, rightInputs.data(), rightArrays.values[1].data(), kN);
    EXPECT_FALSE(tail.ok);
    EXPECT_EQ(tail.unwrittenElements, 3u);
    EXPECT_EQ(tail.worstRoundings, 0.0);
}

TEST(ExpressionCpuExecution, ACancelledTokenStopsTheRun) {
    const Program program = parsed("out = silu(g) * u");
    const VariantPlan plan = planVariant(program, Strategy::Unfused);
    Arrays arrays(program, plan, kN);
    const CancelToken cancelled([] { return true; });
    const Status status =
        runPlan(program, plan, arrays, {kN, 4, 2, CpuInstructionSet::Baseline, cancelled});
    EXPECT_EQ(status.code(), ErrorCode::Cancelled);
}

}  // namespace
}  // namespace fusescope::expr
