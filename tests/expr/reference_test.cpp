// The double reference: values worked out by hand, bounds that widen under cancellation, and
// what counts as equal at NaN and beyond float32's range.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "expr/parser.h"
#include "expr/reference.h"
#include "parsed_program.h"

namespace fusescope::expr {
namespace {

TEST(ExpressionReference, EvaluatesEveryOutputInDouble) {
    const Program program = parsed("t = x * 2; a = t + 3; b = silu(y) * t; c = max(x, y) / 4");
    const float x[] = {1.5f};
    const float y[] = {-0.5f};
    const float* inputs[] = {x, y};
    ReferenceValue outputs[3];
    evaluateReference(program, inputs, 0, outputs);
    EXPECT_DOUBLE_EQ(outputs[0].value, 6.0);
    EXPECT_DOUBLE_EQ(outputs[1].value, -0.5 / (1.0 + std::exp(0.5)) * 3.0);
    EXPECT_DOUBLE_EQ(outputs[2].value, 1.5 / 4);
    // Each operation may round once by the magnitude of its result: 3 for x * 2, 6 for + 3.
    EXPECT_DOUBLE_EQ(outputs[0].bound, 9.0);
}

TEST(ExpressionReference, CancellationWidensTheBound) {
    // (x * 3) - 3x' with x' = x: the difference is 0 but each product rounded.
    const Program program = parsed("out = x * 3 - y * 3");
    const float x[] = {1.1f};
    const float* inputs[] = {x, x};
    ReferenceValue out;
    evaluateReference(program, inputs, 0, &out);
    EXPECT_DOUBLE_EQ(out.value, 0.0);
    EXPECT_NEAR(out.bound, 2 * 3.3, 1e-5);
    EXPECT_LT(roundingsAway(out, 4e-7f), kReferenceRoundings);
    EXPECT_GT(roundingsAway(out, 1e-4f), kReferenceRoundings);
}

TEST(ExpressionReference, NanAndOverflowCompareByKind) {
    const ReferenceValue nan{std::numeric_limits<double>::quiet_NaN(), 1.0};
    EXPECT_EQ(roundingsAway(nan, std::numeric_limits<float>::quiet_NaN()), 0.0);
    EXPECT_TRUE(std::isinf(roundingsAway(nan, 1.0f)));
    const ReferenceValue huge{1e40, 1e40};
    EXPECT_EQ(roundingsAway(huge, std::numeric_limits<float>::infinity()), 0.0);
    EXPECT_EQ(roundingsAway(huge, 2e38f), 0.0);
    EXPECT_TRUE(std::isinf(roundingsAway(huge, -std::numeric_limits<float>::infinity())));
    EXPECT_TRUE(std::isinf(roundingsAway({1.0, 1.0}, std::numeric_limits<float>::quiet_NaN())));
}

TEST(ExpressionReference, InputsArePositiveWhereAFunctionNeedsIt) {
    EXPECT_LT(inputRange(parsed("out = silu(g) * u")).low, 0.0f);
    EXPECT_GT(inputRange(parsed("out = x * rsqrt(v)")).low, 0.0f);
    EXPECT_GT(inputRange(parsed("out = log(x)")).low, 0.0f);
}

}  // namespace
}  // namespace fusescope::expr
