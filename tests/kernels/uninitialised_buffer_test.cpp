// The buffer behind host copies and the CPU MLP's operands: sized without a fill, copied by
// value, moved without a copy.
#include <gtest/gtest.h>

#include <numeric>
#include <utility>

#include "core/uninitialised_buffer.h"

using fusescope::UninitialisedBuffer;

TEST(UninitialisedBuffer, ACopyOfARangeHoldsItsValues) {
    const float values[] = {1.0f, 2.5f, -3.0f};
    const UninitialisedBuffer<float> buffer(std::begin(values), std::end(values));
    ASSERT_EQ(buffer.size(), 3u);
    EXPECT_EQ(buffer[0], 1.0f);
    EXPECT_EQ(buffer[2], -3.0f);
    EXPECT_FLOAT_EQ(std::accumulate(buffer.begin(), buffer.end(), 0.0f), 0.5f);
}

TEST(UninitialisedBuffer, CopiesAreIndependentAndMovesLeaveTheSourceEmpty) {
    UninitialisedBuffer<unsigned char> original(4);
    for (std::size_t i = 0; i < original.size(); ++i) original[i] = static_cast<unsigned char>(i);
    UninitialisedBuffer<unsigned char> copy = original;
    copy[0] = 9;
    EXPECT_EQ(original[0], 0);
    EXPECT_NE(copy.data(), original.data());

    const unsigned char* storage = original.data();
    UninitialisedBuffer<unsigned char> moved = std::move(original);
    EXPECT_EQ(moved.data(), storage) << "a move must not copy the values";
    EXPECT_EQ(moved.size(), 4u);
    EXPECT_TRUE(original.empty());  // NOLINT(bugprone-use-after-move): the moved-from state
    EXPECT_EQ(original.begin(), original.end());

    copy = moved;
    EXPECT_EQ(copy[0], 0);
    EXPECT_EQ(copy[3], 3);
    copy = std::move(moved);
    EXPECT_EQ(copy.data(), storage);
}

TEST(UninitialisedBuffer, AnEmptyBufferHasNoStorage) {
    const UninitialisedBuffer<float> buffer(0);
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.data(), nullptr);
    EXPECT_EQ(buffer.begin(), buffer.end());
}
