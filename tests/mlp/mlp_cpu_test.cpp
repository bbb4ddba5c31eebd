// Every variant on the CPU backend (through the runner, as every run goes) against the double
// reference, on odd shapes, in every dtype.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "mlp_check.h"
#include "mlp_test_shapes.h"
#include "runtime/backend.h"

namespace fusescope::mlp {
namespace {

using namespace testing_support;

class MlpCpuTest : public ::testing::TestWithParam<DType> {};

TEST_P(MlpCpuTest, EveryVariantMatchesTheReferenceAndWritesEveryElement) {
    const auto backend = createCpuBackend(kThreads);
    expectEveryVariantMatchesTheReference(*backend, GetParam(), 11);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, MlpCpuTest,
                         ::testing::Values(DType::Float32, DType::Bfloat16, DType::Tf32),
                         dtypeParamName);

// The CPU's tf32 rounds every product's operands as the GPU's TF32 tensor cores do: its error is
// of TF32's size, well above float32's and within TF32's tolerance, on every variant.
TEST(MlpCpuTf32Test, ErrorIsOfTf32SizeNotFloat32Size) {
    const MlpShape shape{3, 1000, 2750};
    const ReferenceCase c = makeReferenceCase(shape, DType::Tf32, 5);
    const auto backend = createCpuBackend(kThreads);
    for (const std::string& variant : mlpVariants()) {
        SCOPED_TRACE(variant);
        Result<HostMatrix> out =
            runMlpOnce(*backend, mlpRequest(variant, shape, DType::Tf32), c.inputs);
        ASSERT_TRUE(out) << out.status().message();
        const Comparison comparison = compareRows(*out, c.rows, c.reference);
        EXPECT_GT(comparison.relativeError, toleranceFor(DType::Float32));
        EXPECT_LE(comparison.relativeError, toleranceFor(DType::Tf32));
        EXPECT_EQ(comparison.nanElements, 0u);
    }
}

TEST(MlpReferenceTest, TolerancesOrderFloat32Tf32Bfloat16) {
    EXPECT_DOUBLE_EQ(toleranceFor(DType::Float32), 1e-4);
    EXPECT_DOUBLE_EQ(toleranceFor(DType::Tf32), 5e-3);
    EXPECT_DOUBLE_EQ(toleranceFor(DType::Bfloat16), 2e-2);
}

float floatOfBits(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

std::uint32_t bitsOf(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

TEST(MlpReferenceTest, Tf32RoundsToNearestWithTiesAwayFromZero) {
    // Values with 10 mantissa bits or fewer are kept.
    EXPECT_EQ(roundToTf32(1.0f), 1.0f);
    EXPECT_EQ(roundToTf32(-3.5f), -3.5f);
    EXPECT_EQ(roundToTf32(1.0f + 0x1.0p-10f), 1.0f + 0x1.0p-10f);
    // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: away from zero (nearest-even would give 1).
    EXPECT_EQ(roundToTf32(1.0f + 0x1.0p-11f), 1.0f + 0x1.0p-10f);
    EXPECT_EQ(roundToTf32(-(1.0f + 0x1.0p-11f)), -(1.0f + 0x1.0p-10f));
    // Just below halfway rounds down, just above rounds up.
    EXPECT_EQ(roundToTf32(floatOfBits(0x3f800fffu)), 1.0f);
    EXPECT_EQ(roundToTf32(floatOfBits(0x3f801001u)), 1.0f + 0x1.0p-10f);
    // 3 + 2^-10 (0x40401000) lies halfway between 3 and 3 + 2^-9: away, to 3 + 2^-9 (nearest-even
    // would give 3).
    EXPECT_EQ(roundToTf32(3.0f + 0x1.0p-10f), 3.0f + 0x1.0p-9f);
    // The carry runs into the exponent: the float just below 2 rounds to 2.
    EXPECT_EQ(roundToTf32(floatOfBits(0x3fffffffu)), 2.0f);
    // Every result has its 13 low bits clear.
    EXPECT_EQ(bitsOf(roundToTf32(0.1f)) & 0x1fffu, 0u);
    EXPECT_EQ(bitsOf(roundToTf32(0.1f)), 0x3dccc000u);  // 0x3dcccccd: dropped 0x0ccd < 0x1000
    // Infinities and NaN stay; the largest floats round to infinity.
    EXPECT_EQ(roundToTf32(std::numeric_limits<float>::infinity()),
              std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(roundToTf32(std::numeric_limits<float>::quiet_NaN())));
    EXPECT_EQ(roundToTf32(std::numeric_limits<float>::max()),
              std::numeric_limits<float>::infinity());
    // Operand rounding applies to tf32 only.
    EXPECT_EQ(roundToOperand(0.1f, DType::Float32), 0.1f);
    EXPECT_EQ(roundToOperand(0.1f, DType::Tf32), roundToTf32(0.1f));
    EXPECT_EQ(roundToStorage(0.1f, DType::Tf32), 0.1f);  // stored as float32
}

// Inputs of another shape are not the problem's, and the lesson kernel takes only its declared
// tiles: each is refused with the reason before anything runs.
TEST(MlpCpuCheckTest, RefusesMismatchedInputsAndEmptyTiles) {
    const MlpShape shape{2, 16, 24};
    const auto backend = createCpuBackend(1);
    const MlpHostInputs other = makeRandomInputs({2, 17, 24}, DType::Float32, 1, 1);
    const Result<HostMatrix> mismatched =
        runMlpOnce(*backend, mlpRequest(kUnfusedVariant, shape, DType::Float32), other);
    ASSERT_FALSE(mismatched);
    EXPECT_EQ(mismatched.status().code(), ErrorCode::InvalidArgument);
    const MlpHostInputs inputs = makeRandomInputs(shape, DType::Float32, 1, 1);
    RunRequest empty = mlpRequest(kLessonVariant, shape, DType::Float32);
    empty.problem.tuning["block_m"] = 0;
    const Result<HostMatrix> refused = runMlpOnce(*backend, empty, inputs);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(refused.status().message().find("BLOCK_M 0"), std::string::npos)
        << refused.status().message();
}

TEST(MlpReferenceTest, SamplesFirstAndLastRowsOfLargeProblems) {
    EXPECT_EQ(referenceRows(5, 16), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
    const auto rows = referenceRows(4096, 4);
    EXPECT_EQ(rows, (std::vector<std::int64_t>{0, 1365, 2730, 4095}));
}

TEST(MlpReferenceTest, PoisonIsFoundAndBfloat16RoundsToNearestEven) {
    HostMatrix m(DType::Bfloat16, 2, 3);
    m.poison();
    EXPECT_EQ(m.countNaN(1), 6u);
    EXPECT_EQ(toBfloat16(1.0f), 0x3f80u);
    EXPECT_EQ(toBfloat16(1.00390625f), 0x3f80u);  // halfway: ties to the even mantissa
    EXPECT_EQ(toBfloat16(1.01171875f), 0x3f82u);  // halfway: ties up to the even one
    EXPECT_FLOAT_EQ(fromBfloat16(0x4049u), 3.140625f);
}

}  // namespace
}  // namespace fusescope::mlp
