// The variants' declarations in the registry: their kernels' traffic against formulas worked out
// by hand for an odd shape, and where each kernel says it cannot run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pipelines/kernel_execution.h"
#include "pipelines/mlp/mlp_executions.h"
#include "pipelines/registry.h"

namespace fusescope::mlp {
namespace {

// The kernels the variant declares for this problem, its tunings at their defaults but for
// `tunings`.
std::vector<KernelSpec> kernelsOf(std::string_view variant, const MlpShape& s, DType dtype,
                                  const std::map<std::string, int, std::less<>>& tunings = {}) {
    const PipelineSpec& pipeline = *findPipeline(kPipelineName);
    Problem problem;
    problem.dtype = dtype;
    problem.dimensions = {{"M", static_cast<std::uint64_t>(s.M)},
                          {"H", static_cast<std::uint64_t>(s.H)},
                          {"I", static_cast<std::uint64_t>(s.I)}};
    problem.tuning = tunings;
    return findVariant(pipeline, variant)->kernelsFor(withDefaults(pipeline, problem));
}

// The kernel's traffic of one buffer; zeros when it does not touch it.
BufferTraffic of(const KernelSpec& kernel, std::string_view buffer) {
    for (const BufferTraffic& b : kernel.traffic.buffers)
        if (b.buffer == buffer) return b;
    return {std::string(buffer), 0, 0};
}

std::uint64_t totalBytes(const std::vector<KernelSpec>& kernels) {
    std::uint64_t sum = 0;
    for (const KernelSpec& k : kernels) sum += k.traffic.bytesRead() + k.traffic.bytesWritten();
    return sum;
}

double totalFlops(const std::vector<KernelSpec>& kernels) {
    double sum = 0;
    for (const KernelSpec& k : kernels) sum += k.traffic.flops;
    return sum;
}

// M=3, H=1000, I=2750 in bfloat16 (2 bytes): x and out 6000 bytes, one weight matrix
// 5 500 000 bytes, an M x I intermediate 16 500 bytes; one product 2*3*1000*2750 = 16.5 MFLOP.
constexpr MlpShape kShape{3, 1000, 2750};
constexpr std::uint64_t kX = 6000, kW = 5'500'000, kMI = 16'500, kOut = 6000;
constexpr double kGemm = 16.5e6, kMIElements = 8250;

TEST(MlpTrafficTest, UnfusedIsFiveKernelsThroughMemory) {
    const auto k = kernelsOf(kUnfusedVariant, kShape, DType::Bfloat16);
    ASSERT_EQ(k.size(), 5u);
    EXPECT_EQ(k[0].name, "gemm_gate");
    EXPECT_EQ(of(k[0], "x").bytesRead, kX);
    EXPECT_EQ(of(k[0], "gate_up").bytesRead, kW);  // gate's half
    EXPECT_EQ(of(k[0], "g_u_h").bytesWritten, kMI);
    EXPECT_EQ(of(k[1], "gate_up").bytesRead, kW);  // up's half
    EXPECT_EQ(of(k[2], "g_u_h").bytesRead, kMI);
    EXPECT_EQ(of(k[2], "g_u_h").bytesWritten, kMI);
    EXPECT_EQ(k[3].traffic.bytesRead(), 2 * kMI);
    EXPECT_EQ(of(k[3], "g_u_h").bytesWritten, kMI);
    EXPECT_EQ(of(k[4], "down").bytesRead, kW);
    EXPECT_EQ(of(k[4], "out").bytesWritten, kOut);
    EXPECT_EQ(totalBytes(k), 2 * kX + 3 * kW + 8 * kMI + kOut);
    EXPECT_DOUBLE_EQ(totalFlops(k), 3 * kGemm + 5 * kMIElements);
}

TEST(MlpTrafficTest, LessonKernelRereadsWeightsPerOutputTile) {
    // Default tiles 32/64/64/64: 1 M tile, ceil(1000/64) = 16 output-column tiles and
    // ceil(2750/64) = 43 I chunks. Gate and up: once per column tile; x: once per column tile
    // per I chunk; down: once per M tile.
    const auto k = kernelsOf(kLessonVariant, kShape, DType::Bfloat16);
    ASSERT_EQ(k.size(), 1u);
    EXPECT_EQ(of(k[0], "x").bytesRead, kX * 16 * 43);
    EXPECT_EQ(of(k[0], "gate_up").bytesRead, 2 * kW * 16);  // gate and up
    EXPECT_EQ(of(k[0], "down").bytesRead, kW);
    EXPECT_EQ(of(k[0], "out").bytesWritten, kOut);
    EXPECT_EQ(of(k[0], "g_u_h").bytesRead + of(k[0], "g_u_h").bytesWritten, 0u);
    EXPECT_DOUBLE_EQ(k[0].traffic.flops, 2 * kGemm * 16 + kGemm + 5 * kMIElements * 16);
}

TEST(MlpTrafficTest, LessonKernelCountsMTilesToo) {
    // M=100 with BLOCK_M=32: ceil(100/32) = 4 M tiles; BLOCK_N=128 gives
    // ceil(1000/128) = 8 column tiles; BLOCK_I=32 gives ceil(2750/32) = 86 chunks (float32).
    const MlpShape shape{100, 1000, 2750};
    const auto k =
        kernelsOf(kLessonVariant, shape, DType::Float32, {{"block_n", 128}, {"block_i", 32}});
    const std::uint64_t x = 100ull * 1000 * 4, w = 2750ull * 1000 * 4;
    EXPECT_EQ(of(k[0], "x").bytesRead, x * 8 * 86);
    EXPECT_EQ(of(k[0], "gate_up").bytesRead, 2 * w * 4 * 8);
    EXPECT_EQ(of(k[0], "down").bytesRead, w * 4);
}

TEST(MlpTrafficTest, ProductionAtDecodeStreamsEachWeightOnce) {
    // bf16, M=3: gate_up on the tensor cores (H = 1000 is whole 16-byte packs), 16 weight rows a
    // block: ceil(2750/16) = 172 blocks each read all of x. I = 2750 is not, so down runs a warp
    // per weight row, 8 rows a block: ceil(1000/8) = 125 blocks each read all of h.
    const auto k = kernelsOf(kProductionVariant, kShape, DType::Bfloat16);
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].name, "gemv_gate_up_silu");
    EXPECT_EQ(of(k[0], "x").bytesRead, kX * 172);
    EXPECT_EQ(of(k[0], "gate_up").bytesRead, 2 * kW);  // gate and up once each
    EXPECT_EQ(of(k[0], "h").bytesWritten, kMI);
    EXPECT_EQ(of(k[0], "g_u_h").bytesWritten, 0u);  // g and u never reach memory
    EXPECT_EQ(of(k[1], "h").bytesRead, kMI * 125);
    EXPECT_EQ(of(k[1], "down").bytesRead, kW);
    EXPECT_EQ(of(k[1], "out").bytesWritten, kOut);
}

TEST(MlpTrafficTest, ProductionDecodeOnTensorCoresReadsActivationsOncePerSixteenWeightRows) {
    // Llama-3-8B decode, bf16, M=4: H and I are whole 16-byte packs, so 16 weight rows a block:
    // 14336/16 = 896 gate_up blocks and 4096/16 = 256 down blocks.
    const MlpShape shape{4, 4096, 14336};
    const auto k = kernelsOf(kProductionVariant, shape, DType::Bfloat16);
    EXPECT_EQ(of(k[0], "x").bytesRead, 4ull * 4096 * 2 * 896);
    EXPECT_EQ(of(k[0], "gate_up").bytesRead, 2 * 14336ull * 4096 * 2);
    EXPECT_EQ(of(k[1], "h").bytesRead, 4ull * 14336 * 2 * 256);
    // One row as well: 896 and 256 blocks, each reading its activation row once.
    const auto one = kernelsOf(kProductionVariant, {1, 4096, 14336}, DType::Bfloat16);
    EXPECT_EQ(of(one[0], "x").bytesRead, 4096ull * 2 * 896);
    EXPECT_EQ(of(one[1], "h").bytesRead, 14336ull * 2 * 256);
    // float32 stays on the CUDA cores: a warp per weight row, 8 rows a block, 1792 and 512 blocks.
    const auto fp32 = kernelsOf(kProductionVariant, {1, 4096, 14336}, DType::Float32);
    EXPECT_EQ(of(fp32[0], "x").bytesRead, 4096ull * 4 * 1792);
    EXPECT_EQ(of(fp32[1], "h").bytesRead, 14336ull * 4 * 512);
}

TEST(MlpTrafficTest, ProductionAtPrefillRereadsWeightsPerMTile) {
    // Default tiles 128 x 128 at M=300: ceil(300/128) = 3 M tiles, ceil(2750/128) = 22 I tiles.
    const MlpShape shape{300, 1000, 2750};
    const auto k = kernelsOf(kProductionVariant, shape, DType::Bfloat16);
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].name, "gemm_gate_up_silu");
    EXPECT_EQ(of(k[0], "x").bytesRead, 300ull * 1000 * 2 * 22);
    EXPECT_EQ(of(k[0], "gate_up").bytesRead, 2 * kW * 3);
    EXPECT_EQ(of(k[0], "h").bytesWritten, 300ull * 2750 * 2);
    EXPECT_EQ(k[1].name, "gemm_down");
}

TEST(MlpTrafficTest, ProductionAtLlamaPrefillChargesTheHopperKernelsNarrowTiles) {
    // 4 x 112 tiles of 128 x 128 would take more than one wave of 132 blocks: bfloat16 runs the
    // Hopper kernel at 128 x 112, ceil(14336/112) = 128 I tiles, each reading all of x.
    const MlpShape prefill{512, 4096, 14336};
    const auto bf16 = kernelsOf(kProductionVariant, prefill, DType::Bfloat16);
    EXPECT_EQ(of(bf16[0], "x").bytesRead, 512ull * 4096 * 2 * 128);
    EXPECT_EQ(of(bf16[0], "gate_up").bytesRead, 2ull * 14336 * 4096 * 2 * 4);
    // Chosen tiles, and float32 (the CUDA-core kernel), stay at 128 columns: 112 I tiles.
    const auto chosen =
        kernelsOf(kProductionVariant, prefill, DType::Bfloat16, {{"tile_m", 128}, {"tile_i", 64}});
    EXPECT_EQ(of(chosen[0], "x").bytesRead, 512ull * 4096 * 2 * 224);
    const auto fp32 = kernelsOf(kProductionVariant, prefill, DType::Float32);
    EXPECT_EQ(of(fp32[0], "x").bytesRead, 512ull * 4096 * 4 * 112);
}

TEST(MlpTrafficTest, ProductionAtPrefillFollowsTheChosenTiles) {
    // TILE_M 64, TILE_I 32 at M=300: ceil(300/64) = 5 M tiles, ceil(2750/32) = 86 I tiles.
    const MlpShape shape{300, 1000, 2750};
    const auto k =
        kernelsOf(kProductionVariant, shape, DType::Bfloat16, {{"tile_m", 64}, {"tile_i", 32}});
    EXPECT_EQ(of(k[0], "x").bytesRead, 300ull * 1000 * 2 * 86);
    EXPECT_EQ(of(k[0], "gate_up").bytesRead, 2 * kW * 5);  // gate and up
    EXPECT_EQ(of(k[0], "h").bytesWritten, 300ull * 2750 * 2);
    // Decode sizes run the GEMV kernels, which the tiles do not change.
    EXPECT_EQ(totalBytes(kernelsOf(kProductionVariant, kShape, DType::Bfloat16,
                                   {{"tile_m", 64}, {"tile_i", 32}})),
              totalBytes(kernelsOf(kProductionVariant, kShape, DType::Bfloat16)));
}

TEST(MlpTrafficTest, MergedWritesGAndUOnceFromOneProduct) {
    const auto k = kernelsOf(kMergedVariant, kShape, DType::Float32);
    ASSERT_EQ(k.size(), 3u);
    EXPECT_EQ(of(k[0], "x").bytesRead, 2 * kX);  // float32 doubles every byte count
    EXPECT_EQ(k[0].traffic.bytesWritten(), 4 * kMI);
    EXPECT_EQ(k[1].traffic.bytesRead(), 4 * kMI);
    EXPECT_EQ(totalBytes(k), 2 * (kX + 3 * kW + 6 * kMI + kOut));
    EXPECT_DOUBLE_EQ(usefulFlops(kShape), 3 * kGemm);
}

// Each kernel is found by its own key, at decode and prefill sizes: no list of a variant's kernels
// lives anywhere but in its declaration.
TEST(MlpDeclarationTest, EveryDeclaredKernelHasItsCodeOnTheCpu) {
    ExecutionCatalog cpu = makeCpuExecutions();
    for (const VariantSpec& variant : findPipeline(kPipelineName)->variants)
        for (const MlpShape& shape : {kShape, MlpShape{300, 1000, 2750}})
            for (const KernelSpec& kernel : kernelsOf(variant.name, shape, DType::Bfloat16)) {
                EXPECT_EQ(kernel.execution, executionKey(kernel.name));
                EXPECT_NE(cpu.find(kernel.execution), cpu.end()) << kernel.execution;
            }
}

// The production fusion has no TF32 path on the GPU and takes only its allowed tiles there: its
// declaration says so with the reason, at decode and prefill sizes; the CPU runs it either way.
TEST(MlpDeclarationTest, ProductionRefusesOnTheGpuWhatItsCodeCannotRun) {
    const PipelineSpec& pipeline = *findPipeline(kPipelineName);
    for (const MlpShape& shape : {kShape, MlpShape{300, 1000, 2750}}) {
        Problem problem = pipeline.defaultProblem();
        problem.dimensions["M"] = static_cast<std::uint64_t>(shape.M);
        problem.dtype = DType::Tf32;
        const auto k = kernelsOf(kProductionVariant, shape, DType::Tf32);
        ASSERT_TRUE(k[0].canImplement);
        const Status gpu = k[0].canImplement(problem, BackendKind::Cuda);
        EXPECT_EQ(gpu.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(gpu.message().find("TF32"), std::string::npos) << gpu.message();
        EXPECT_TRUE(k[0].canImplement(problem, BackendKind::Cpu));
    }
    Problem prefill = pipeline.defaultProblem();
    prefill.dimensions["M"] = 300;
    prefill.dtype = DType::Bfloat16;
    prefill.tuning["tile_m"] = 96;
    const auto k = kernelsOf(kProductionVariant, {300, 1024, 2816}, DType::Bfloat16);
    const Status tiles = k[0].canImplement(prefill, BackendKind::Cuda);
    EXPECT_NE(tiles.message().find("TILE_M 96"), std::string::npos) << tiles.message();
    prefill.tuning["tile_m"] = 64;
    EXPECT_TRUE(k[0].canImplement(prefill, BackendKind::Cuda));
    // The unfused variant's library calls run every problem the limits allow.
    for (const KernelSpec& kernel : kernelsOf(kUnfusedVariant, kShape, DType::Tf32))
        EXPECT_FALSE(kernel.canImplement) << kernel.name;
}

}  // namespace
}  // namespace fusescope::mlp
