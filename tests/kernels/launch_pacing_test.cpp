// Which timed GPU launches are enqueued one at a time so that a cancel leaves one to finish,
// and the memory of their last times that decides it (host logic only: no GPU needed).
#include <gtest/gtest.h>

#include <vector>

#include "runtime/launch_pacing.h"

using namespace fusescope;

TEST(LaunchPacing, LongSequencesGoOneAtATimeAndShortOnesBackToBack) {
    // Five 100 ms launches: back to back, a cancel would leave 400 ms queued behind the first.
    EXPECT_TRUE(enqueueOneAtATime(5, std::vector<double>(5, 100.0)));
    // The MLP's five kernels at a few milliseconds each stay back to back.
    EXPECT_FALSE(enqueueOneAtATime(5, std::vector<double>{3.0, 3.0, 0.5, 0.5, 2.0}));
    // One long launch behind short ones leaves little queued behind it.
    EXPECT_FALSE(enqueueOneAtATime(3, std::vector<double>{400.0, 10.0, 10.0}));
    // Just past the limit behind the longest.
    EXPECT_TRUE(enqueueOneAtATime(3, std::vector<double>{400.0, 30.0, 30.0}));
}

TEST(LaunchPacing, UnknownLaunchesGoOneAtATimeButASingleLaunchNeverNeedsTo) {
    EXPECT_TRUE(enqueueOneAtATime(2, {}));
    EXPECT_TRUE(enqueueOneAtATime(2, std::vector<double>{1.0}));  // times of another sequence
    EXPECT_FALSE(enqueueOneAtATime(1, {}));
    EXPECT_FALSE(enqueueOneAtATime(1, std::vector<double>{5000.0}));
}

TEST(LaunchPacing, TimesAreRememberedPerSequenceOfCodeAndProblem) {
    Problem small;
    small.dimensions["N"] = 1000;
    Problem large = small;
    large.dimensions["N"] = 2000;
    int buffer = 0;
    KernelLaunch launch;
    launch.call.problem = &small;
    launch.call.kernelName = "mul2";
    launch.call.buffers = {&buffer};
    const std::vector<KernelLaunch> sequence = {launch, launch};

    LaunchTimesMemory memory;
    EXPECT_TRUE(memory.expected(sequence).empty());
    memory.remember(sequence, {120.0, 80.0});
    EXPECT_EQ(memory.expected(sequence), (std::vector<double>{120.0, 80.0}));

    std::vector<KernelLaunch> other = sequence;
    other[1].call.problem = &large;
    EXPECT_TRUE(memory.expected(other).empty());
    other = sequence;
    other[0].call.kernelName = "add3";
    EXPECT_TRUE(memory.expected(other).empty());
    // The same work on new buffers (a measured run after the timed one) takes as long.
    other = sequence;
    other[0].call.buffers = {nullptr};
    EXPECT_EQ(memory.expected(other), (std::vector<double>{120.0, 80.0}));
    EXPECT_TRUE(memory.expected(std::span(sequence).first(1)).empty());

    memory.remember(sequence, {1.0, 2.0});  // the latest times count
    EXPECT_EQ(memory.expected(sequence), (std::vector<double>{1.0, 2.0}));
}
