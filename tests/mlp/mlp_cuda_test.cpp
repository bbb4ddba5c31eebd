// Every GPU variant against the double reference on odd shapes, in both dtypes; skips with the
// reason when there is no usable GPU.
#include <gtest/gtest.h>

#include <iterator>
#include <vector>

#include "mlp_check.h"
#include "mlp_test_shapes.h"
#include "pipelines/mlp/mlp_device_problem.h"
#include "pipelines/mlp/mlp_launch.h"
#include "runtime/backend.h"

namespace fusescope::mlp {
namespace {

using namespace testing_support;

// A cuBLAS context on the GPU, or the test skips with the reason there is none.
template <typename Base>
class WithMlpContext : public Base {
  protected:
    void SetUp() override {
        const BackendAvailability availability = probeBackends();
        if (!availability.cudaUsable) GTEST_SKIP() << availability.cudaReason;
        auto created = MlpCudaContext::create();
        // The probe found a GPU: failing to use it is a real failure, not a reason to skip.
        ASSERT_TRUE(created) << created.status().message();
        context = std::move(*created);
    }

    std::unique_ptr<MlpCudaContext> context;
};

class MlpCudaTest : public WithMlpContext<::testing::TestWithParam<MlpDtype>> {};

TEST_P(MlpCudaTest, EveryVariantMatchesTheReferenceAndWritesEveryElement) {
    const MlpDtype dtype = GetParam();
    std::uint64_t seed = 101;
    for (const MlpShape& shape : kOddShapes) {
        const ReferenceCase c = makeReferenceCase(shape, dtype, ++seed);
        auto problem = MlpDeviceProblem::create(shape, dtype, c.inputs);
        ASSERT_TRUE(problem) << problem.status().message();
        for (MlpVariant variant : kAllVariants) {
            SCOPED_TRACE(std::string(variantName(variant)) + " " + shapeText(shape));
            ASSERT_TRUE((*problem)->poisonOutput(*context));
            const Status run = runMlpCuda(*context, variant, shape, dtype, (*problem)->buffers());
            ASSERT_TRUE(run) << run.message();
            HostMatrix out(dtype, shape.M, shape.H);
            const Status copied = (*problem)->download(*context, out);
            ASSERT_TRUE(copied) << copied.message();
            EXPECT_TRUE(matchesReference(out, c.rows, c.reference));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, MlpCudaTest,
                         ::testing::Values(MlpDtype::Float32, MlpDtype::Bfloat16), dtypeParamName);

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
    const KernelResources whole = gateUpSiluResources(MlpDtype::Bfloat16, {512, 1024, 2816});
    const KernelResources odd = gateUpSiluResources(MlpDtype::Bfloat16, {201, 1000, 2750});
    const KernelResources unpacked = gateUpSiluResources(MlpDtype::Bfloat16, {130, 1001, 328});
    for (const KernelResources* r : {&whole, &odd, &unpacked}) {
        ASSERT_TRUE(r->known);
        EXPECT_EQ(r->localBytesPerThread, 0);
    }
    EXPECT_EQ(whole.blockSize, hopper ? 384 : 256);
    EXPECT_EQ(odd.blockSize, hopper ? 384 : 256);
    EXPECT_EQ(unpacked.blockSize, 256);
    // 4 x 22 tiles of 128 x 128 on the Hopper kernel.
    if (hopper) {
        EXPECT_EQ(whole.gridSize, 4 * 22);
    }
}

// tf32: the lesson kernel (compiled at run time with TF32 mma), the unfused and merged variants
// (cuBLAS with TF32 compute) on the odd shapes and the classroom preset; the production fusion
// has no TF32 path and says so.
class MlpCudaTf32Test : public WithMlpContext<::testing::Test> {};

TEST_F(MlpCudaTf32Test, TensorCoreVariantsMatchTheReferenceAndProductionIsRefused) {
    std::vector<MlpShape> shapes(std::begin(kOddShapes), std::end(kOddShapes));
    shapes.push_back({512, 1024, 2816});  // the classroom preset
    std::uint64_t seed = 301;
    for (const MlpShape& shape : shapes) {
        const ReferenceCase c = makeReferenceCase(shape, MlpDtype::Tf32, ++seed);
        auto problem = MlpDeviceProblem::create(shape, MlpDtype::Tf32, c.inputs);
        ASSERT_TRUE(problem) << problem.status().message();
        for (MlpVariant variant :
             {MlpVariant::LessonFused, MlpVariant::Unfused, MlpVariant::MergedGateUp}) {
            SCOPED_TRACE(std::string(variantName(variant)) + " " + shapeText(shape));
            ASSERT_TRUE((*problem)->poisonOutput(*context));
            const Status run =
                runMlpCuda(*context, variant, shape, MlpDtype::Tf32, (*problem)->buffers());
            ASSERT_TRUE(run) << run.message();
            HostMatrix out(MlpDtype::Tf32, shape.M, shape.H);
            const Status copied = (*problem)->download(*context, out);
            ASSERT_TRUE(copied) << copied.message();
            EXPECT_TRUE(matchesReference(out, c.rows, c.reference));
        }
        const Status refused = runMlpCuda(*context, MlpVariant::Production, shape, MlpDtype::Tf32,
                                          (*problem)->buffers());
        EXPECT_EQ(refused.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(refused.message().find("TF32"), std::string::npos) << refused.message();
    }
}

TEST(MlpCudaCheckTest, RefusesTilesThatWereNotCompiled) {
    const Status s = checkCudaProblem(MlpVariant::LessonFused, {4, 64, 64}, MlpDtype::Bfloat16,
                                      LessonTiles{64, 64, 64, 64});
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_TRUE(checkCudaProblem(MlpVariant::LessonFused, {4, 64, 64}, MlpDtype::Bfloat16,
                                 kLessonDefaultTiles));
}

}  // namespace
}  // namespace fusescope::mlp
