// Chains typed in the expression lab, their generated kernels compiled by NVRTC and run on the
// GPU: every variant at both widths and several sizes passes its check against the double
// reference, and the generated fused kernels of the lesson's chains run as fast as the shipped
// ones (the silu gate against SwiGLU's fused kernel, x * 2 + 3 against the affine fused kernel).
#include <gtest/gtest.h>

#include <string>

#include "cuda_gpu_fixture.h"
#include "expr/expression_pipeline.h"
#include "expr/ledger.h"
#include "expr/parser.h"
#include "pipelines/runtime_registry.h"
#include "platform/runtime_compiler.h"
#include "runtime/runner.h"

using namespace fusescope;

namespace {

const std::string kName(expr::kExpressionPipelineName);

struct Unregister {
    ~Unregister() { (void)unregisterPipeline(kName); }
};

class CudaExpression : public fusescope::testing_support::NvrtcWidthAndSizeTest {};

Result<RunReport> runOn(Backend& backend, const std::string& pipeline,
                        const std::vector<std::string>& variants, std::uint64_t n, int width,
                        int repeats) {
    RunRequest request;
    request.pipeline = pipeline;
    request.variants = variants;
    request.problem.dimensions["N"] = n;
    request.problem.tuning["vector"] = width;
    request.settings.repeats = repeats;
    request.settings.warmup = 1;
    RunObserver observer;
    return runPipeline(backend, request, observer);
}

}  // namespace

TEST_P(CudaExpression, EveryVariantMatchesTheReference) {
    const Unregister unregister;
    const auto& [width, n] = GetParam();
    const char* const chains[] = {
        "out = x * 2 + 3",
        "out = silu(g) * u",
        "y = (x - m) * rsqrt(v + 1e-5) * w + b",
        "t = x * 2 | s = t + 3; out2 = t - 1; out = s * s",
        "param k = 0.5; a = gelu(x) * k + sigmoid(y) | out = tanh(a) + exp(-abs(a)) / max(a, 1) "
        "- sqrt(abs(x))",
    };
    for (const char* text : chains) {
        SCOPED_TRACE(text);
        const expr::ParseResult parsed = expr::parseProgram(text);
        ASSERT_TRUE(parsed) << parsed.error().message();
        ASSERT_TRUE(expr::registerExpression(text));
        Result<RunReport> report = runOn(*backend, kName, {}, n, width, 2);
        ASSERT_TRUE(report) << report.status().message();
        const std::vector<expr::Strategy> strategies = expr::strategiesOf(parsed.program());
        ASSERT_EQ(report->variants.size(), strategies.size());
        for (std::size_t v = 0; v < strategies.size(); ++v) {
            const VariantResult& variant = report->variants[v];
            EXPECT_TRUE(variant.check.ok)
                << variant.variant << ": error " << variant.check.error << " > "
                << variant.check.tolerance << ", unwritten " << variant.check.unwrittenElements;
            const expr::Ledger ledger = expr::predictLedger(
                parsed.program(), expr::planVariant(parsed.program(), strategies[v]), n);
            EXPECT_EQ(variant.passes, ledger.passes) << variant.variant;
            for (const KernelResult& kernel : variant.kernels)
                EXPECT_TRUE(kernel.resources.known) << kernel.name;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(BothWidths, CudaExpression,
                         fusescope::testing_support::bothWidthsAtEdgeSizes(),
                         fusescope::testing_support::widthAndSizeName);

using CudaExpressionSpeed = fusescope::testing_support::NvrtcGpuTest;

// At N = 2^28 (a GiB an array, far past the L2), vector width 4: within 3% of the shipped kernel.
TEST_F(CudaExpressionSpeed, GeneratedFusedKernelsRunAsFastAsTheShippedOnes) {
    const Unregister unregister;
    constexpr std::uint64_t kN = std::uint64_t{1} << 28;
    const std::pair<const char*, const char*> pairs[] = {{"out = silu(g) * u", "swiglu"},
                                                         {"out = x * 2 + 3", "affine"}};
    for (const auto& [text, shipped] : pairs) {
        SCOPED_TRACE(text);
        ASSERT_TRUE(expr::registerExpression(text));
        Result<RunReport> generated = runOn(*backend, kName, {"fused"}, kN, 4, 30);
        ASSERT_TRUE(generated) << generated.status().message();
        Result<RunReport> builtIn = runOn(*backend, shipped, {"fused"}, kN, 4, 30);
        ASSERT_TRUE(builtIn) << builtIn.status().message();
        const double ours = generated->variants.front().timeMs;
        const double theirs = builtIn->variants.front().timeMs;
        EXPECT_LE(ours, theirs * 1.03)
            << "generated " << ours << " ms, shipped " << theirs << " ms";
        std::printf("%s: generated fused %.3f ms, shipped %s fused %.3f ms (%+.1f%%)\n", text, ours,
                    shipped, theirs, (ours / theirs - 1.0) * 100.0);
    }
}
