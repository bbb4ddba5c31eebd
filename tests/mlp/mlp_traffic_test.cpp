// The traffic model against formulas worked out by hand for an odd shape.
#include <gtest/gtest.h>

#include "pipelines/mlp/mlp_traffic.h"

namespace fusescope::mlp {
namespace {

// M=3, H=1000, I=2750 in bfloat16 (2 bytes): x and out 6000 bytes, one weight matrix
// 5 500 000 bytes, an M x I intermediate 16 500 bytes; one product 2*3*1000*2750 = 16.5 MFLOP.
constexpr MlpShape kShape{3, 1000, 2750};
constexpr std::uint64_t kX = 6000, kW = 5'500'000, kMI = 16'500, kOut = 6000;
constexpr double kGemm = 16.5e6, kMIElements = 8250;

TEST(MlpTrafficTest, UnfusedIsFiveKernelsThroughMemory) {
    const auto k = mlpTraffic(MlpVariant::Unfused, kShape, MlpDtype::Bfloat16);
    ASSERT_EQ(k.size(), 5u);
    EXPECT_EQ(k[0].name, "gemm_gate");
    EXPECT_EQ(k[0].of(MlpBuffer::X).bytesRead, kX);
    EXPECT_EQ(k[0].of(MlpBuffer::Gate).bytesRead, kW);
    EXPECT_EQ(k[0].of(MlpBuffer::G).bytesWritten, kMI);
    EXPECT_EQ(k[1].of(MlpBuffer::Up).bytesRead, kW);
    EXPECT_EQ(k[2].of(MlpBuffer::G).bytesRead, kMI);
    EXPECT_EQ(k[2].of(MlpBuffer::G).bytesWritten, kMI);
    EXPECT_EQ(k[3].bytesRead(), 2 * kMI);
    EXPECT_EQ(k[3].of(MlpBuffer::H).bytesWritten, kMI);
    EXPECT_EQ(k[4].of(MlpBuffer::Down).bytesRead, kW);
    EXPECT_EQ(k[4].of(MlpBuffer::Out).bytesWritten, kOut);
    EXPECT_EQ(totalBytes(k), 2 * kX + 3 * kW + 8 * kMI + kOut);
    EXPECT_DOUBLE_EQ(totalFlops(k), 3 * kGemm + 5 * kMIElements);
}

TEST(MlpTrafficTest, LessonKernelRereadsWeightsPerOutputTile) {
    // Default tiles 32/64/64/64: 1 M tile, ceil(1000/64) = 16 output-column tiles and
    // ceil(2750/64) = 43 I chunks. Gate and up: once per column tile; x: once per column tile
    // per I chunk; down: once per M tile.
    const auto k = mlpTraffic(MlpVariant::LessonFused, kShape, MlpDtype::Bfloat16);
    ASSERT_EQ(k.size(), 1u);
    EXPECT_EQ(k[0].of(MlpBuffer::X).bytesRead, kX * 16 * 43);
    EXPECT_EQ(k[0].of(MlpBuffer::Gate).bytesRead, kW * 16);
    EXPECT_EQ(k[0].of(MlpBuffer::Up).bytesRead, kW * 16);
    EXPECT_EQ(k[0].of(MlpBuffer::Down).bytesRead, kW);
    EXPECT_EQ(k[0].of(MlpBuffer::Out).bytesWritten, kOut);
    EXPECT_EQ(k[0].of(MlpBuffer::H).bytesRead + k[0].of(MlpBuffer::H).bytesWritten, 0u);
    EXPECT_DOUBLE_EQ(k[0].flops, 2 * kGemm * 16 + kGemm + 5 * kMIElements * 16);
}

TEST(MlpTrafficTest, LessonKernelCountsMTilesToo) {
    // M=100 with BLOCK_M=32: ceil(100/32) = 4 M tiles; BLOCK_N=128 gives
    // ceil(1000/128) = 8 column tiles; BLOCK_I=32 gives ceil(2750/32) = 86 chunks (float32).
    const MlpShape shape{100, 1000, 2750};
    const auto k =
        mlpTraffic(MlpVariant::LessonFused, shape, MlpDtype::Float32, LessonTiles{32, 128, 64, 32});
    const std::uint64_t x = 100ull * 1000 * 4, w = 2750ull * 1000 * 4;
    EXPECT_EQ(k[0].of(MlpBuffer::X).bytesRead, x * 8 * 86);
    EXPECT_EQ(k[0].of(MlpBuffer::Gate).bytesRead, w * 4 * 8);
    EXPECT_EQ(k[0].of(MlpBuffer::Down).bytesRead, w * 4);
}

TEST(MlpTrafficTest, ProductionAtDecodeStreamsEachWeightOnce) {
    // bf16, M=3: gate_up on the tensor cores (H = 1000 is whole 16-byte packs), 16 weight rows a
    // block: ceil(2750/16) = 172 blocks each read all of x. I = 2750 is not, so down runs a warp
    // per weight row, 8 rows a block: ceil(1000/8) = 125 blocks each read all of h.
    const auto k = mlpTraffic(MlpVariant::Production, kShape, MlpDtype::Bfloat16);
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].name, "gemv_gate_up_silu");
    EXPECT_EQ(k[0].of(MlpBuffer::X).bytesRead, kX * 172);
    EXPECT_EQ(k[0].of(MlpBuffer::Gate).bytesRead, kW);
    EXPECT_EQ(k[0].of(MlpBuffer::Up).bytesRead, kW);
    EXPECT_EQ(k[0].of(MlpBuffer::H).bytesWritten, kMI);
    EXPECT_EQ(k[0].of(MlpBuffer::G).bytesWritten, 0u);
    EXPECT_EQ(k[1].of(MlpBuffer::H).bytesRead, kMI * 125);
    EXPECT_EQ(k[1].of(MlpBuffer::Down).bytesRead, kW);
    EXPECT_EQ(k[1].of(MlpBuffer::Out).bytesWritten, kOut);
}

TEST(MlpTrafficTest, ProductionDecodeOnTensorCoresReadsActivationsOncePerSixteenWeightRows) {
    // Llama-3-8B decode, bf16, M=4: H and I are whole 16-byte packs, so 16 weight rows a block:
    // 14336/16 = 896 gate_up blocks and 4096/16 = 256 down blocks.
    const MlpShape shape{4, 4096, 14336};
    const auto k = mlpTraffic(MlpVariant::Production, shape, MlpDtype::Bfloat16);
    EXPECT_EQ(k[0].of(MlpBuffer::X).bytesRead, 4ull * 4096 * 2 * 896);
    EXPECT_EQ(k[0].of(MlpBuffer::Gate).bytesRead, 14336ull * 4096 * 2);
    EXPECT_EQ(k[1].of(MlpBuffer::H).bytesRead, 4ull * 14336 * 2 * 256);
    // One row as well: 896 and 256 blocks, each reading its activation row once.
    const auto one = mlpTraffic(MlpVariant::Production, {1, 4096, 14336}, MlpDtype::Bfloat16);
    EXPECT_EQ(one[0].of(MlpBuffer::X).bytesRead, 4096ull * 2 * 896);
    EXPECT_EQ(one[1].of(MlpBuffer::H).bytesRead, 14336ull * 2 * 256);
    // float32 stays on the CUDA cores: a warp per weight row, 8 rows a block, 1792 and 512 blocks.
    const auto fp32 = mlpTraffic(MlpVariant::Production, {1, 4096, 14336}, MlpDtype::Float32);
    EXPECT_EQ(fp32[0].of(MlpBuffer::X).bytesRead, 4096ull * 4 * 1792);
    EXPECT_EQ(fp32[1].of(MlpBuffer::H).bytesRead, 14336ull * 4 * 512);
}

TEST(MlpTrafficTest, ProductionAtPrefillRereadsWeightsPerMTile) {
    // Default tiles 128 x 128 at M=300: ceil(300/128) = 3 M tiles, ceil(2750/128) = 22 I tiles.
    const MlpShape shape{300, 1000, 2750};
    const auto k = mlpTraffic(MlpVariant::Production, shape, MlpDtype::Bfloat16);
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].name, "gemm_gate_up_silu");
    EXPECT_EQ(k[0].of(MlpBuffer::X).bytesRead, 300ull * 1000 * 2 * 22);
    EXPECT_EQ(k[0].of(MlpBuffer::Gate).bytesRead, kW * 3);
    EXPECT_EQ(k[0].of(MlpBuffer::H).bytesWritten, 300ull * 2750 * 2);
    EXPECT_EQ(k[1].name, "gemm_down");
}

TEST(MlpTrafficTest, ProductionAtPrefillFollowsTheChosenTiles) {
    // TILE_M 64, TILE_I 32 at M=300: ceil(300/64) = 5 M tiles, ceil(2750/32) = 86 I tiles.
    const MlpShape shape{300, 1000, 2750};
    const auto k = mlpTraffic(MlpVariant::Production, shape, MlpDtype::Bfloat16,
                              kLessonDefaultTiles, production::Tiles{64, 32});
    EXPECT_EQ(k[0].of(MlpBuffer::X).bytesRead, 300ull * 1000 * 2 * 86);
    EXPECT_EQ(k[0].of(MlpBuffer::Gate).bytesRead, kW * 5);
    EXPECT_EQ(k[0].of(MlpBuffer::Up).bytesRead, kW * 5);
    EXPECT_EQ(k[0].of(MlpBuffer::H).bytesWritten, 300ull * 2750 * 2);
    // Decode sizes run the GEMV kernels, which the tiles do not change.
    EXPECT_EQ(totalBytes(mlpTraffic(MlpVariant::Production, kShape, MlpDtype::Bfloat16,
                                    kLessonDefaultTiles, production::Tiles{64, 32})),
              totalBytes(mlpTraffic(MlpVariant::Production, kShape, MlpDtype::Bfloat16)));
}

TEST(MlpTrafficTest, MergedWritesGAndUOnceFromOneProduct) {
    const auto k = mlpTraffic(MlpVariant::MergedGateUp, kShape, MlpDtype::Float32);
    ASSERT_EQ(k.size(), 3u);
    EXPECT_EQ(k[0].of(MlpBuffer::X).bytesRead, 2 * kX);  // float32 doubles every byte count
    EXPECT_EQ(k[0].bytesWritten(), 4 * kMI);
    EXPECT_EQ(k[1].bytesRead(), 4 * kMI);
    EXPECT_EQ(totalBytes(k), 2 * (kX + 3 * kW + 6 * kMI + kOut));
    EXPECT_DOUBLE_EQ(usefulFlops(kShape), 3 * kGemm);
}

}  // namespace
}  // namespace fusescope::mlp
