// The CPU loops' log and tanh against double, over the range they are used in.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "expr/cpu_expr_math.h"

namespace fusescope {
namespace {

TEST(ExpressionCpuMath, LogIsWithinTwoUnitsOfTheLastPlace) {
    double worst = 0.0;
    for (float x = 1e-30f; x < 1e30f; x *= 1.0137f) {
        const double exact = std::log(static_cast<double>(x));
        const double error = std::abs(logPolynomial(x) - exact) /
                             std::max(std::abs(exact) * 0x1p-24, 0x1p-24 * 0x1p-24);
        worst = std::max(worst, error);
    }
    for (float x = 0.5f; x < 2.0f; x += 1.0f / 4096) {
        const double exact = std::log(static_cast<double>(x));
        if (exact == 0.0) continue;
        worst = std::max(worst, std::abs(logPolynomial(x) - exact) / (std::abs(exact) * 0x1p-24));
    }
    EXPECT_LT(worst, 4.0);
    EXPECT_TRUE(std::isnan(logPolynomial(-1.0f)));
    EXPECT_EQ(logPolynomial(0.0f), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(logPolynomial(std::numeric_limits<float>::infinity()),
              std::numeric_limits<float>::infinity());
}

TEST(ExpressionCpuMath, TanhIsAccurateNearZeroAndSaturatesBeyond) {
    double worst = 0.0;
    for (float x = -12.0f; x < 12.0f; x += 1.0f / 1024) {
        const double exact = std::tanh(static_cast<double>(x));
        if (exact == 0.0) continue;
        worst = std::max(worst, std::abs(tanhFloat(x) - exact) / (std::abs(exact) * 0x1p-24));
    }
    for (float x = 1e-8f; x < 1.0f; x *= 1.01f) {
        const double exact = std::tanh(static_cast<double>(x));
        worst = std::max(worst, std::abs(tanhFloat(x) - exact) / (std::abs(exact) * 0x1p-24));
    }
    EXPECT_LT(worst, 4.0);
    EXPECT_EQ(tanhFloat(100.0f), 1.0f);
    EXPECT_EQ(tanhFloat(-100.0f), -1.0f);
}

}  // namespace
}  // namespace fusescope
