// The generated CUDA: the silu gate and the affine chain in the built-in kernels' shape, exact
// float literals, and every variant of several chains compiled by NVRTC for sm_90 at widths 1
// and 4 (no GPU needed; skips where NVRTC is not installed).
#include <gtest/gtest.h>

#include <string>

#include "expr/cuda_source.h"
#include "expr/parser.h"
#include "parsed_program.h"
#include "platform/runtime_compiler.h"

namespace fusescope::expr {
namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(ExpressionCudaSource, FusedSiluGateIsTheBuiltInKernelsShape) {
    const Program program = parsed("out = silu(g) * u");
    const GeneratedKernel kernel =
        generateCudaKernel(program, planVariant(program, Strategy::Fused), 0, 4);
    EXPECT_EQ(kernel.entry, "fused_v4");
    EXPECT_EQ(kernel.args, (std::vector<std::string>{"g", "u", "out"}));
    const std::string& s = kernel.source;
    // silu as pipelines/cuda_elementwise.cuh writes it, the product in a register.
    EXPECT_TRUE(contains(s, "return v / (1.0f + expf(-v));")) << s;
    EXPECT_TRUE(contains(s, "const float v0 = fs_silu(g_in);")) << s;
    EXPECT_TRUE(contains(s, "const float v1 = v0 * u_in;")) << s;
    EXPECT_TRUE(contains(s,
                         "extern \"C\" __global__ void fused_v4(\n"
                         "    const float* __restrict__ g_in,\n"
                         "    const float* __restrict__ u_in,\n"
                         "    float* __restrict__ out_out,\n"
                         "    unsigned long long n) {\n"))
        << s;
    // Two float4 groups a step, stored after both are computed, then groups, then the tail.
    EXPECT_TRUE(contains(s, "for (; g + stride < groups; g += 2 * stride)")) << s;
    EXPECT_TRUE(contains(s, "reinterpret_cast<const float4*>(g_in)[g + s * stride]")) << s;
    EXPECT_TRUE(contains(s, "reinterpret_cast<float4*>(out_out)[g + s * stride] = out_result[s];"))
        << s;
    EXPECT_TRUE(contains(s, "scalarBegin = groups * 4;")) << s;
    EXPECT_FALSE(contains(s, "fs_sigmoid")) << "only the helpers the kernel uses";
}

TEST(ExpressionCudaSource, WidthOneIsOneScalarLoop) {
    const Program program = parsed("out = x * 2 + 3");
    const GeneratedKernel kernel =
        generateCudaKernel(program, planVariant(program, Strategy::Fused), 0, 1);
    EXPECT_EQ(kernel.entry, "fused_v1");
    EXPECT_FALSE(contains(kernel.source, "float4")) << kernel.source;
    EXPECT_TRUE(contains(kernel.source, "const float v0 = x_in * 2.0f;")) << kernel.source;
    EXPECT_TRUE(contains(kernel.source, "const float v1 = v0 + 3.0f;")) << kernel.source;
    EXPECT_TRUE(contains(kernel.source, "fused_element(x_in[i], out_out[i]);")) << kernel.source;
}

TEST(ExpressionCudaSource, UnfusedKernelsReadAndWriteTheirIntermediates) {
    const Program program = parsed("out = x * 2 + 3");
    const VariantPlan plan = planVariant(program, Strategy::Unfused);
    const GeneratedKernel first = generateCudaKernel(program, plan, 0, 4);
    const GeneratedKernel second = generateCudaKernel(program, plan, 1, 4);
    EXPECT_EQ(first.entry, "k1_mul_v4");
    EXPECT_EQ(first.args, (std::vector<std::string>{"x", "tmp1"}));
    EXPECT_EQ(second.args, (std::vector<std::string>{"tmp1", "out"}));
    EXPECT_TRUE(contains(second.source, "const float v1 = tmp1_in + 3.0f;")) << second.source;
    const std::string all = cudaSourceText(program, plan, 4);
    EXPECT_TRUE(contains(all, first.source) && contains(all, second.source));
}

TEST(ExpressionCudaSource, LiteralsReadBackExactly) {
    EXPECT_EQ(cudaFloatLiteral(2.0f), "2.0f");
    EXPECT_EQ(cudaFloatLiteral(0.1f), "0.1f");
    EXPECT_EQ(cudaFloatLiteral(1e-5f), "1e-05f");
    EXPECT_EQ(cudaFloatLiteral(-1.5f), "(-1.5f)");
    EXPECT_EQ(cudaFloatLiteral(16777217.0f), "16777216.0f");
    const float awkward = 0.7978845608f;
    const std::string literal = cudaFloatLiteral(awkward);
    EXPECT_EQ(std::stof(literal), awkward) << literal;
}

TEST(ExpressionCudaSource, NvrtcCompilesEveryVariantAtBothWidths) {
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    if (!nvrtc) GTEST_SKIP() << nvrtc.status().message();
    const char* const chains[] = {
        "out = x * 2 + 3",
        "out = silu(g) * u",
        "y = (x - m) * rsqrt(v + 1e-5) * w + b",
        "param alpha = -0.25; a = exp(x) * alpha + log(y) - sqrt(z) / rsqrt(w) | "
        "out = min(abs(a), max(a, -a)) * sigmoid(a)",
        "out = gelu(x) + tanh(y); out2 = silu(x) * 0.5",
        // Names that are CUDA's own, and a kernel that reads no array.
        "float4 = int * 2; n = float4 + 1 | k = 2 * 3 | out = n * k",
    };
    for (const char* text : chains) {
        const Program program = parsed(text);
        for (const Strategy strategy : strategiesOf(program)) {
            const VariantPlan plan = planVariant(program, strategy);
            for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
                for (const int width : {1, 4}) {
                    const GeneratedKernel kernel =
                        generateCudaKernel(program, plan, static_cast<int>(k), width);
                    SCOPED_TRACE(std::string(text) + " / " + kernel.entry);
                    std::string log;
                    const CompileRequest request{kernel.entry + ".cu", kernel.source, {}, "sm_90"};
                    const Result<std::vector<unsigned char>> image =
                        (*nvrtc)->compile(request, log);
                    ASSERT_TRUE(image) << image.status().message() << "\n"
                                       << log << "\n"
                                       << kernel.source;
                    EXPECT_GT(image->size(), 500u);
                }
            }
        }
    }
}

}  // namespace
}  // namespace fusescope::expr
