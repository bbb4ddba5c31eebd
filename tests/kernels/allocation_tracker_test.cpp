#include "runtime/allocation_tracker.h"

#include <gtest/gtest.h>

using namespace fusescope;

TEST(AllocationTracker, RecordsEventsAndPeak) {
    auto backend = createCpuBackend(1);
    AllocationTracker tracker(*backend);
    {
        auto a = tracker.allocate("a", 100);
        ASSERT_TRUE(a);
        auto b = tracker.allocate("b", 50);
        ASSERT_TRUE(b);
        EXPECT_EQ(tracker.inFlightBytes(), 150u);
        ASSERT_TRUE(a->reset());
        EXPECT_EQ(tracker.inFlightBytes(), 50u);
        auto c = tracker.allocate("c", 20);
        ASSERT_TRUE(c);
        EXPECT_EQ(tracker.peakBytes(), 150u);
    }
    EXPECT_EQ(tracker.inFlightBytes(), 0u);
    const auto& events = tracker.events();
    ASSERT_EQ(events.size(), 6u);
    EXPECT_EQ(events[0].kind, AllocationEvent::Kind::Allocate);
    EXPECT_EQ(events[0].buffer, "a");
    EXPECT_EQ(events[2].kind, AllocationEvent::Kind::Free);
    EXPECT_EQ(events[2].inFlightAfter, 50u);
    for (std::size_t i = 1; i < events.size(); ++i)
        EXPECT_GE(events[i].timeNs, events[i - 1].timeNs);
    EXPECT_EQ(events.back().inFlightAfter, 0u);
}

TEST(AllocationTracker, ResetPeakStartsANewWindow) {
    auto backend = createCpuBackend(1);
    AllocationTracker tracker(*backend);
    { auto big = tracker.allocate("big", 1000); }
    tracker.resetPeak();
    auto small = tracker.allocate("small", 10);
    EXPECT_EQ(tracker.peakBytes(), 10u);
}

TEST(AllocationTracker, MovedBufferFreesOnce) {
    auto backend = createCpuBackend(1);
    AllocationTracker tracker(*backend);
    {
        auto a = tracker.allocate("a", 64);
        ASSERT_TRUE(a);
        TrackedBuffer moved = std::move(*a);
        TrackedBuffer other;
        other = std::move(moved);
        EXPECT_EQ(tracker.inFlightBytes(), 64u);
    }
    EXPECT_EQ(tracker.inFlightBytes(), 0u);
    EXPECT_EQ(tracker.events().size(), 2u);
}
