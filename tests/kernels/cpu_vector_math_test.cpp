#include <gtest/gtest.h>

#include <cmath>

#include "pipelines/cpu_vector_math.h"

using namespace fusescope;

TEST(CpuVectorMath, ExpIsWithinItsStatedBoundOverItsRange) {
    double worst = 0.0;
    for (double x = -87.0; x <= 88.0; x += 1.0 / 4096.0) {
        const double expected = std::exp(x);
        const double actual = expPolynomial(static_cast<float>(x));
        worst = std::max(worst, std::abs(actual - expected) / expected);
    }
    EXPECT_LE(worst, 2e-7);
}

TEST(CpuVectorMath, ExpSaturatesInsteadOfOverflowing) {
    for (float x : {89.0f, 200.0f, 1e6f}) {
        const float value = expPolynomial(x);
        EXPECT_TRUE(std::isfinite(value)) << x;
        EXPECT_GT(value, 1e38f) << x;
    }
    for (float x : {-88.0f, -200.0f, -1e6f}) {
        const float value = expPolynomial(x);
        EXPECT_GT(value, 0.0f) << x;
        EXPECT_LT(value, 1e-37f) << x;
    }
}

TEST(CpuVectorMath, SiluKeepsItsLimits) {
    EXPECT_FLOAT_EQ(siluFloat(200.0f), 200.0f);
    EXPECT_NEAR(siluFloat(-200.0f), 0.0f, 1e-30f);
    EXPECT_FLOAT_EQ(siluFloat(0.0f), 0.0f);
    for (double g = -20.0; g <= 20.0; g += 0.01) {
        const double expected = g / (1.0 + std::exp(-g));
        const double actual = siluFloat(static_cast<float>(g));
        EXPECT_LE(std::abs(actual - expected), 1e-6 * std::max(std::abs(expected), 1e-6)) << g;
    }
}
