#include <gtest/gtest.h>

#include <cmath>

#include "analysis/sweep_steps.h"

using namespace fusescope;

TEST(LogSteps, PowersOfTwoAtOneStepPerOctave) {
    auto sizes = logSteps(4096, std::uint64_t{1} << 28, 1);
    ASSERT_TRUE(sizes) << sizes.status().message();
    ASSERT_EQ(sizes->size(), 17u);
    for (std::size_t k = 0; k < sizes->size(); ++k)
        EXPECT_EQ((*sizes)[k], std::uint64_t{4096} << k);
}

TEST(LogSteps, TwoStepsPerOctaveAreSquareRootOfTwoApart) {
    auto sizes = logSteps(4096, 65536, 2);
    ASSERT_TRUE(sizes);
    ASSERT_EQ(sizes->size(), 9u);
    EXPECT_EQ(sizes->front(), 4096u);
    EXPECT_EQ(sizes->back(), 65536u);
    EXPECT_EQ((*sizes)[1], 5793u);  // round(4096 * sqrt 2)
    for (std::size_t k = 1; k < sizes->size(); ++k)
        EXPECT_NEAR(static_cast<double>((*sizes)[k]) / (*sizes)[k - 1], std::sqrt(2.0), 1e-3);
}

// Any N, not only powers of two: both ends exactly, steps close to the ratio in between.
TEST(LogSteps, IncludesBothEndsForAnyN) {
    for (auto [from, to] : {std::pair<std::uint64_t, std::uint64_t>{1000, 1000000},
                            {3, 100003},
                            {4097, 268435455},
                            {5000, 5001}}) {
        for (int perOctave : {1, 2, 3}) {
            auto sizes = logSteps(from, to, perOctave);
            ASSERT_TRUE(sizes) << from << ".." << to;
            EXPECT_EQ(sizes->front(), from);
            EXPECT_EQ(sizes->back(), to);
            const double ratio = std::pow(2.0, 1.0 / perOctave);
            for (std::size_t k = 1; k < sizes->size(); ++k) {
                const double step = static_cast<double>((*sizes)[k]) / (*sizes)[k - 1];
                EXPECT_GT(step, 1.0);
                // Interior steps are the ratio up to rounding; the last may be up to 1.5 steps.
                EXPECT_LE(step, std::pow(ratio, 1.5) * 1.01) << from << ".." << to;
                if (k + 1 < sizes->size() && (*sizes)[k - 1] >= 100) {
                    EXPECT_NEAR(step, ratio, 0.01 * ratio);
                }
            }
        }
    }
}

TEST(LogSteps, SmallSizesNeverRepeat) {
    auto sizes = logSteps(1, 16, 8);
    ASSERT_TRUE(sizes);
    EXPECT_EQ(sizes->front(), 1u);
    EXPECT_EQ(sizes->back(), 16u);
    for (std::size_t k = 1; k < sizes->size(); ++k) EXPECT_GT((*sizes)[k], (*sizes)[k - 1]);
}

TEST(LogSteps, OnePointWhenBothEndsAreEqual) {
    auto sizes = logSteps(65536, 65536, 1);
    ASSERT_TRUE(sizes);
    EXPECT_EQ(*sizes, std::vector<std::uint64_t>{65536});
}

TEST(LogSteps, RejectsBadRanges) {
    EXPECT_FALSE(logSteps(0, 100, 1));
    EXPECT_FALSE(logSteps(200, 100, 1));
    EXPECT_FALSE(logSteps(1, 100, 0));
    EXPECT_FALSE(logSteps(1, 100, kMaxStepsPerOctave + 1));
    EXPECT_NE(logSteps(200, 100, 1).status().message().find("below"), std::string::npos);
}
