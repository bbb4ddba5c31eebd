// Every variant on the CUDA backend (through the runner, as every run goes) against the double
// reference on odd shapes, in every dtype; skips with the reason when there is no usable GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "mlp_check.h"
#include "mlp_test_shapes.h"
#include "pipelines/mlp/mlp_launch.h"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "runtime/backend.h"

namespace fusescope::mlp {
namespace {

using namespace testing_support;

// The CUDA backend, or the test skips with the reason there is none.
template <typename Base>
class WithCudaBackend : public Base {
  protected:
    void SetUp() override {
        const BackendAvailability availability = probeBackends();
        if (!availability.cudaUsable) GTEST_SKIP() << availability.cudaReason;
        Result<std::unique_ptr<Backend>> created = createCudaBackend(0);
        // The probe found a GPU: failing to use it is a real failure, not a reason to skip.
        ASSERT_TRUE(created) << created.status().message();
        backend = std::move(*created);
    }

    std::unique_ptr<Backend> backend;
};

class MlpCudaTest : public WithCudaBackend<::testing::TestWithParam<DType>> {};

TEST_P(MlpCudaTest, EveryVariantMatchesTheReferenceAndWritesEveryElement) {
    expectEveryVariantMatchesTheReference(*backend, GetParam(), 101);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, MlpCudaTest, ::testing::Values(DType::Float32, DType::Bfloat16),
                         dtypeParamName);

// On compute capability 9.0 the production fusion's bfloat16 prefill GEMM is the TMA and wgmma
// kernel (3 warpgroups) where rows are 16-byte strides; elsewhere, and for other rows, the
// mma.sync kernel (8 warps). The variants' results are checked above whichever runs.
TEST(MlpCudaHopperTest, PrefillRunsTheHopperKernelWhereItCan) {
    const BackendAvailability availability = probeBackends();
    if (!availability.cudaUsable) GTEST_SKIP() << availability.cudaReason;
    Result<std::unique_ptr<Backend>> backend = createCudaBackend(0);
    ASSERT_TRUE(backend) << backend.status().message();
    const DeviceInfo device = (*backend)->describe();
    const bool hopper = device.computeCapabilityMajor == 9 && device.computeCapabilityMinor == 0;
    const KernelResources whole = gateUpSiluResources(DType::Bfloat16, {512, 1024, 2816});
    const KernelResources odd = gateUpSiluResources(DType::Bfloat16, {201, 1000, 2750});
    const KernelResources unpacked = gateUpSiluResources(DType::Bfloat16, {130, 1001, 328});
    for (const KernelResources* r : {&whole, &odd, &unpacked}) {
        ASSERT_TRUE(r->known);
        EXPECT_EQ(r->localBytesPerThread, 0);
    }
    EXPECT_EQ(whole.blockSize, hopper ? 384 : 256);
    EXPECT_EQ(odd.blockSize, hopper ? 384 : 256);
    EXPECT_EQ(unpacked.blockSize, 256);
    // 4 x 22 tiles of 128 x 128: one wave, a block a tile. At Llama-3-8B prefill the Hopper
    // kernel takes tiles of 128 x 112 (4 x 128) and walks them with one block an SM; the mma.sync
    // kernel launches a block for each of its 4 x 112 tiles of 128 x 128.
    EXPECT_EQ(whole.gridSize, 4 * 22);
    const KernelResources prefill = gateUpSiluResources(DType::Bfloat16, {512, 4096, 14336});
    EXPECT_EQ(prefill.gridSize, hopper ? std::min(4 * 128, device.multiprocessors) : 4 * 112);
}

// The production fusion in bfloat16 at a shape whose gate_up kernel takes the narrow (128 x 112)
// tiles, against the double reference.
class MlpCudaProductionTest : public WithCudaBackend<::testing::Test> {
  protected:
    void expectNarrowTilesMatchTheReference(const MlpShape& shape, std::uint64_t seed) {
        ASSERT_EQ(
            production::gateUpLaunchTiles(production::kDefaultTiles, DType::Bfloat16, shape).tileI,
            production::kHopperNarrowTileI);
        const ReferenceCase c = makeReferenceCase(shape, DType::Bfloat16, seed);
        Result<HostMatrix> out =
            runMlpOnce(*backend, mlpRequest(kProductionVariant, shape, DType::Bfloat16), c.inputs);
        ASSERT_TRUE(out) << out.status().message();
        EXPECT_TRUE(matchesReference(*out, c.rows, c.reference));
    }
};

// More tiles than multiprocessors: 9 x 16 tiles of 128 x 128 would take more than one wave, so
// bfloat16 takes 128 x 112 tiles, 9 x 18 = 162 of them, partial in M (1100 = 8 x 128 + 76) and
// in I (2000 = 17 x 112 + 96). On Hopper the persistent grid then walks two tiles with some of
// its blocks; elsewhere the mma.sync kernel runs a block a tile.
TEST_F(MlpCudaProductionTest, PrefillWithMoreTilesThanMultiprocessorsMatchesTheReference) {
    expectNarrowTilesMatchTheReference({1100, 256, 2000}, 909);
}

// Rows of x too wide for the whole of M to stay in the L2: the Hopper kernel walks its tiles in
// bands of M tiles (on the H200, whose L2 is 60 MiB, x's 29 MB here make two bands: 4 M tiles,
// then 3 whose last is partial in M), with more tiles (7 x 27) than multiprocessors and a partial
// I tile (3000 = 26 x 112 + 88).
TEST_F(MlpCudaProductionTest, PrefillWithBandsOfMTilesMatchesTheReference) {
    expectNarrowTilesMatchTheReference({837, 16384, 3000}, 911);
}

// tf32: the lesson kernel (compiled at run time with TF32 mma), the unfused and merged variants
// (cuBLAS with TF32 compute) on the odd shapes and the classroom preset; the production fusion
// has no TF32 path and says so.
class MlpCudaTf32Test : public WithCudaBackend<::testing::Test> {};

TEST_F(MlpCudaTf32Test, TensorCoreVariantsMatchTheReferenceAndProductionIsRefused) {
    std::vector<MlpShape> shapes(std::begin(kOddShapes), std::end(kOddShapes));
    shapes.push_back({512, 1024, 2816});  // the classroom preset
    std::uint64_t seed = 301;
    for (const MlpShape& shape : shapes) {
        const ReferenceCase c = makeReferenceCase(shape, DType::Tf32, ++seed);
        for (std::string_view variant : {kLessonVariant, kUnfusedVariant, kMergedVariant}) {
            SCOPED_TRACE(std::string(variant) + " " + shapeText(shape));
            Result<HostMatrix> out =
                runMlpOnce(*backend, mlpRequest(variant, shape, DType::Tf32), c.inputs);
            ASSERT_TRUE(out) << out.status().message();
            EXPECT_TRUE(matchesReference(*out, c.rows, c.reference));
        }
        const Result<HostMatrix> refused =
            runMlpOnce(*backend, mlpRequest(kProductionVariant, shape, DType::Tf32), c.inputs);
        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.status().code(), ErrorCode::InvalidArgument);
        EXPECT_NE(refused.status().message().find("TF32"), std::string::npos)
            << refused.status().message();
    }
}

}  // namespace
}  // namespace fusescope::mlp
