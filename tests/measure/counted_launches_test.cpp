// A launch counted several times: each count's median, and the range of the counts that move
// with what the L2 keeps.
#include <gtest/gtest.h>

#include <vector>

#include "measure/counted_launches.h"

using namespace fusescope;

namespace {

KernelCounters launchReading(double dramRead, double dramWritten, double l2Sectors) {
    KernelCounters counters;
    counters.dramBytesRead = dramRead;
    counters.dramBytesWritten = dramWritten;
    counters.sectorsRead = dramRead / 32.0;
    counters.sectorsWritten = dramWritten / 32.0;
    counters.l2SectorsRead = l2Sectors;
    counters.l2SectorsWritten = 10.0;
    counters.deviceKernels = 1;
    return counters;
}

}  // namespace

TEST(CountedLaunches, OneLaunchComesBackAsItWas) {
    const KernelCounters once = launchReading(5e9, 4e6, 1e8);
    const std::vector<KernelCounters> launches{once};
    const KernelCounters combined = combineCountedLaunches(launches);
    EXPECT_DOUBLE_EQ(combined.dramBytesRead, 5e9);
    EXPECT_FALSE(combined.countedLaunches);
    EXPECT_FALSE(combined.dramReadSpread);
    EXPECT_FALSE(combined.l2SectorsReadSpread);
}

TEST(CountedLaunches, EachCountIsItsOwnMedianAndTheMovingOnesKeepTheirRange) {
    // Five launches of the precompiled lesson kernel at prefill-512, as the H200 counted them
    // (GB): the DRAM reads move by 1.9x while the L2 requests stay put.
    const std::vector<KernelCounters> launches{
        launchReading(5.571e9, 4.40e6, 9.0e8), launchReading(4.801e9, 4.30e6, 9.1e8),
        launchReading(6.746e9, 4.50e6, 9.0e8), launchReading(7.214e9, 4.60e6, 9.2e8),
        launchReading(3.795e9, 4.20e6, 9.0e8)};
    const KernelCounters combined = combineCountedLaunches(launches);
    EXPECT_DOUBLE_EQ(combined.dramBytesRead, 5.571e9);
    EXPECT_DOUBLE_EQ(combined.dramBytesWritten, 4.40e6);
    EXPECT_DOUBLE_EQ(*combined.sectorsRead, 5.571e9 / 32.0);
    EXPECT_DOUBLE_EQ(*combined.l2SectorsRead, 9.0e8);
    EXPECT_DOUBLE_EQ(*combined.l2SectorsWritten, 10.0);
    EXPECT_EQ(combined.deviceKernels, 1u);
    EXPECT_EQ(combined.countedLaunches, 5u);
    ASSERT_TRUE(combined.dramReadSpread);
    EXPECT_DOUBLE_EQ(combined.dramReadSpread->low, 3.795e9);
    EXPECT_DOUBLE_EQ(combined.dramReadSpread->high, 7.214e9);
    ASSERT_TRUE(combined.dramWrittenSpread);
    EXPECT_DOUBLE_EQ(combined.dramWrittenSpread->low, 4.20e6);
    EXPECT_DOUBLE_EQ(combined.dramWrittenSpread->high, 4.60e6);
    ASSERT_TRUE(combined.l2SectorsReadSpread);
    EXPECT_DOUBLE_EQ(combined.l2SectorsReadSpread->high, 9.2e8);
}

TEST(CountedLaunches, AnEvenCountTakesTheMeanOfTheMiddleTwo) {
    const std::vector<KernelCounters> launches{launchReading(4e6, 1e6, 8.0),
                                               launchReading(1e6, 2e6, 2.0)};
    const KernelCounters combined = combineCountedLaunches(launches);
    EXPECT_DOUBLE_EQ(combined.dramBytesRead, 2.5e6);
    EXPECT_DOUBLE_EQ(combined.dramBytesWritten, 1.5e6);
    EXPECT_DOUBLE_EQ(*combined.l2SectorsRead, 5.0);
}

TEST(CountedLaunches, ACountSomeLaunchLacksStaysEmptyRatherThanAMedianOfFewer) {
    KernelCounters withoutL2 = launchReading(2e6, 1e6, 0.0);
    withoutL2.l2SectorsRead.reset();
    const std::vector<KernelCounters> launches{launchReading(1e6, 1e6, 3.0), withoutL2,
                                               launchReading(3e6, 1e6, 5.0)};
    const KernelCounters combined = combineCountedLaunches(launches);
    EXPECT_FALSE(combined.l2SectorsRead);
    EXPECT_FALSE(combined.l2SectorsReadSpread);
    EXPECT_DOUBLE_EQ(combined.dramBytesRead, 2e6);
    EXPECT_TRUE(combined.dramReadSpread);
}

TEST(CountedLaunches, ASpreadCountsPastThreePercentOrOneMegabyteWhicheverIsLarger) {
    // Large counts: 3% of the median decides.
    EXPECT_FALSE(spreadExceedsTolerance({.low = 99e6, .high = 101.9e6}, 100e6));
    EXPECT_TRUE(spreadExceedsTolerance({.low = 99e6, .high = 102.1e6}, 100e6));
    // Small counts: 1 MB decides.
    EXPECT_FALSE(spreadExceedsTolerance({.low = 0.1e6, .high = 0.9e6}, 0.5e6));
    EXPECT_TRUE(spreadExceedsTolerance({.low = 0.1e6, .high = 1.2e6}, 0.5e6));
}
