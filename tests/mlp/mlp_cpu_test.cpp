// Every variant's CPU implementation against the double reference, on odd shapes, in both dtypes.
#include <gtest/gtest.h>

#include "mlp_check.h"
#include "mlp_test_shapes.h"
#include "pipelines/mlp/mlp_cpu.h"

namespace fusescope::mlp {
namespace {

using namespace testing_support;

class MlpCpuTest : public ::testing::TestWithParam<MlpDtype> {};

TEST_P(MlpCpuTest, EveryVariantMatchesTheReferenceAndWritesEveryElement) {
    const MlpDtype dtype = GetParam();
    std::uint64_t seed = 11;
    for (const MlpShape& shape : kOddShapes) {
        const ReferenceCase c = makeReferenceCase(shape, dtype, ++seed);
        for (MlpVariant variant : kAllVariants) {
            SCOPED_TRACE(std::string(variantName(variant)) + " " + shapeText(shape));
            HostMatrix out(dtype, shape.M, shape.H);
            out.poison();
            ASSERT_TRUE(runMlpCpu(variant, shape, c.inputs, out, kThreads));
            EXPECT_TRUE(matchesReference(out, c.rows, c.reference));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, MlpCpuTest,
                         ::testing::Values(MlpDtype::Float32, MlpDtype::Bfloat16), dtypeParamName);

TEST(MlpCpuCheckTest, RefusesMismatchedMatrices) {
    const MlpShape shape{2, 16, 24};
    const MlpHostInputs inputs = makeRandomInputs(shape, MlpDtype::Float32, 1, 1);
    HostMatrix wrongOut(MlpDtype::Float32, 2, 17);
    const Status s = runMlpCpu(MlpVariant::Unfused, shape, inputs, wrongOut, 1);
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    HostMatrix out(MlpDtype::Float32, 2, 16);
    EXPECT_EQ(runMlpCpu(MlpVariant::LessonFused, shape, inputs, out, 1, LessonTiles{0, 64, 64, 64})
                  .code(),
              ErrorCode::InvalidArgument);
}

TEST(MlpReferenceTest, SamplesFirstAndLastRowsOfLargeProblems) {
    EXPECT_EQ(referenceRows(5, 16), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
    const auto rows = referenceRows(4096, 4);
    EXPECT_EQ(rows, (std::vector<std::int64_t>{0, 1365, 2730, 4095}));
}

TEST(MlpReferenceTest, PoisonIsFoundAndBfloat16RoundsToNearestEven) {
    HostMatrix m(MlpDtype::Bfloat16, 2, 3);
    m.poison();
    EXPECT_EQ(m.countNaN(1), 6u);
    EXPECT_EQ(toBfloat16(1.0f), 0x3f80u);
    EXPECT_EQ(toBfloat16(1.00390625f), 0x3f80u);  // halfway: ties to the even mantissa
    EXPECT_EQ(toBfloat16(1.01171875f), 0x3f82u);  // halfway: ties up to the even one
    EXPECT_FLOAT_EQ(fromBfloat16(0x4049u), 3.140625f);
}

}  // namespace
}  // namespace fusescope::mlp
