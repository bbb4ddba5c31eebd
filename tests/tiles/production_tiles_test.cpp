// The production fusion's run-time tiles without a GPU: NVRTC compiles the gate_up kernel's
// source for sm_90 at tiles the program has no precompiled code for (skips with the reason where
// NVRTC is missing), refused tiles are refused with their reasons, and the model's launch
// geometry and bytes follow the chosen tiles on a shape that is no multiple of any tile.
#include <gtest/gtest.h>

#include "pipelines/mlp/mlp_production_tiled.h"
#include "pipelines/registry.h"
#include "platform/runtime_compiler.h"
#include "support/mlp_tile_configurations.h"
#include "tiles/tile_model.h"

namespace fusescope::tiles {
namespace {

using testsupport::productionTiles;

DeviceLimits h200LikeLimits() {
    return testsupport::testGpuLimits(132, 227);
}

TEST(ProductionTilesCompile, NvrtcCompilesNonDefaultTilesForSm90) {
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    if (!nvrtc) GTEST_SKIP() << nvrtc.status().message();
    const mlp::production::Tiles cases[] = {{64, 32}, {64, 128}, {128, 128}};
    for (const mlp::production::Tiles& tiles : cases) {
        SCOPED_TRACE("TILE_M " + std::to_string(tiles.tileM) + " TILE_I " +
                     std::to_string(tiles.tileI));
        const CompileRequest request = mlp::productionTiledCompileRequest(
            tiles, mlp::productionTiledMinBlocks(tiles, 228 * 1024), 9, 0);
        EXPECT_EQ(request.architecture, "sm_90");
        std::string log;
        Result<std::vector<unsigned char>> image = (*nvrtc)->compile(request, log);
        ASSERT_TRUE(image) << image.status().message() << "\n" << log;
        EXPECT_GT(image->size(), 1000u);
    }
}

TEST(ProductionTilesCompile, BlocksPerSmBoundFollowsSharedMemory) {
    // 3 stages x (TILE_M + 2 TILE_I) rows x 64 x 2 B: 128 x 64 is 96 KiB (two fit 228 KiB),
    // 64 x 128 is 120 KiB and 128 x 128 is 144 KiB (one).
    EXPECT_EQ(mlp::productionTiledSharedBytes({128, 64}), 96u * 1024);
    EXPECT_EQ(mlp::productionTiledSharedBytes({64, 128}), 120u * 1024);
    EXPECT_EQ(mlp::productionTiledSharedBytes({128, 128}), 144u * 1024);
    EXPECT_EQ(mlp::productionTiledSharedBytes({64, 32}), 48u * 1024);
    EXPECT_EQ(mlp::productionTiledMinBlocks({128, 64}, 228 * 1024), 2);
    EXPECT_EQ(mlp::productionTiledMinBlocks({64, 128}, 228 * 1024), 1);
    EXPECT_EQ(mlp::productionTiledMinBlocks({128, 128}, 228 * 1024), 1);
}

TEST(ProductionTilesRefusal, ValuesTheKernelCannotTakeAreRefusedWithTheReason) {
    const auto m = mlp::productionTilesRefusal({96, 64}, DType::Bfloat16);
    ASSERT_TRUE(m.has_value());
    EXPECT_NE(m->find("TILE_M 96"), std::string::npos) << *m;
    EXPECT_NE(m->find("64 or 128"), std::string::npos) << *m;
    const auto i = mlp::productionTilesRefusal({128, 48}, DType::Bfloat16);
    ASSERT_TRUE(i.has_value());
    EXPECT_NE(i->find("TILE_I 48"), std::string::npos) << *i;
    EXPECT_NE(i->find("32, 64 or 128"), std::string::npos) << *i;
    const auto fp32 = mlp::productionTilesRefusal({64, 128}, DType::Float32);
    ASSERT_TRUE(fp32.has_value());
    EXPECT_NE(fp32->find("float32"), std::string::npos) << *fp32;
    EXPECT_FALSE(mlp::productionTilesRefusal(mlp::production::kDefaultTiles, DType::Float32));
    EXPECT_FALSE(mlp::productionTilesRefusal({64, 32}, DType::Bfloat16));
}

TEST(ProductionTilesRefusal, TheTileModelRefusesBeforeLaunching) {
    const DeviceLimits limits = h200LikeLimits();
    EXPECT_FALSE(refusalFor(productionTiles(512, 1024, 2816, DType::Bfloat16, 64, 128), limits));
    const auto value =
        refusalFor(productionTiles(512, 1024, 2816, DType::Bfloat16, 96, 64), limits);
    ASSERT_TRUE(value.has_value());
    EXPECT_EQ(value->kind, RefusalKind::NotTunable);
    EXPECT_NE(value->reason.find("TILE_M 96"), std::string::npos) << value->reason;
    // At decode sizes the production fusion runs GEMV kernels: its GEMM tiles change nothing.
    const auto decode = refusalFor(productionTiles(3, 1000, 2750, DType::Bfloat16, 64, 32), limits);
    ASSERT_TRUE(decode.has_value());
    EXPECT_NE(decode->reason.find("GEMV"), std::string::npos) << decode->reason;
    const auto fp32 = refusalFor(productionTiles(512, 1024, 2816, DType::Float32, 64, 32), limits);
    ASSERT_TRUE(fp32.has_value());
    EXPECT_NE(fp32->reason.find("float32"), std::string::npos) << fp32->reason;
    DeviceLimits small = limits;
    small.sharedBytesPerBlockOptIn = 100 * 1024;
    const auto shared =
        refusalFor(productionTiles(512, 1024, 2816, DType::Bfloat16, 128, 128), small);
    ASSERT_TRUE(shared.has_value());
    EXPECT_EQ(shared->kind, RefusalKind::SharedMemory);
    EXPECT_NE(shared->reason.find("144.0 KiB"), std::string::npos) << shared->reason;
    // The unfused variant takes no tiles at all.
    TileConfiguration unfused = productionTiles(512, 1024, 2816, DType::Bfloat16, 128, 64);
    unfused.variant = "unfused";
    const auto none = refusalFor(unfused, limits);
    ASSERT_TRUE(none.has_value());
    EXPECT_EQ(none->kind, RefusalKind::NotTunable);
}

TEST(ProductionTilesModel, GeometryAndTilesTextFollowTheTiles) {
    const TileConfiguration c = productionTiles(201, 1000, 2750, DType::Bfloat16, 64, 32);
    const LaunchGeometry g = geometryOf(c, h200LikeLimits());
    EXPECT_EQ(g.kernelName, "mlp_gate_up_silu_tiled");
    EXPECT_EQ(g.gridX, 4u);   // ceil(201 / 64)
    EXPECT_EQ(g.gridY, 86u);  // ceil(2750 / 32)
    EXPECT_EQ(g.blocks, 344u);
    EXPECT_EQ(g.threadsPerBlock, 256);
    EXPECT_EQ(g.dynamicSharedBytes, 48u * 1024);
    EXPECT_EQ(tilesText(c), "tile_m=64 tile_i=32");
}

TEST(ProductionTilesModel, BytesFollowTheChosenTilesOnAnOddShape) {
    // M=201, H=1000, I=2750, bfloat16: x 402 000 B, one weight 5 500 000 B, h 1 105 500 B,
    // out 402 000 B. gate_up re-reads x once per I tile and gate and up once per M tile; the
    // down GEMM reads h and down once and writes out.
    constexpr std::uint64_t x = 201ull * 1000 * 2, w = 2750ull * 1000 * 2, h = 201ull * 2750 * 2,
                            out = 201ull * 1000 * 2;
    const DeviceLimits limits = h200LikeLimits();
    struct Case {
        int tileM, tileI;
        std::uint64_t tilesM, tilesI;
    };
    for (const Case& k : {Case{64, 32, 4, 86}, Case{128, 128, 2, 22}, Case{128, 64, 2, 43}}) {
        SCOPED_TRACE(std::to_string(k.tileM) + " x " + std::to_string(k.tileI));
        const ResourceReport r = modelReport(
            productionTiles(201, 1000, 2750, DType::Bfloat16, k.tileM, k.tileI), limits);
        EXPECT_EQ(r.modelBytes, x * k.tilesI + 2 * w * k.tilesM + h + h + w + out);
        const double gemm = 2.0 * 201 * 1000 * 2750;
        EXPECT_DOUBLE_EQ(r.modelFlops, 3 * gemm + 5.0 * 201 * 2750);
    }
}

}  // namespace
}  // namespace fusescope::tiles
