// The gap rules on synthetic evidence: each reason appears when its evidence is there and only
// then.
#include <gtest/gtest.h>

#include <algorithm>

#include "measure/gap.h"
#include "support/kernel_counts.h"

using namespace fusescope;
using fusescope::testing_support::counted;

namespace {

constexpr double kGB = 1e9;
constexpr std::uint64_t kL2 = 60u << 20;

bool has(const std::vector<GapFinding>& findings, GapReason reason) {
    return std::any_of(findings.begin(), findings.end(),
                       [&](const GapFinding& f) { return f.reason == reason; });
}

// A kernel that reads one array and writes one, measured exactly as modelled, with coalesced
// 4-byte accesses (one 32-byte sector per 32 bytes).
KernelEvidence exactKernel(double arrayBytes) {
    KernelEvidence e;
    e.modelBytesRead = arrayBytes;
    e.modelBytesWritten = arrayBytes;
    e.measured = counted(arrayBytes, arrayBytes, arrayBytes / 32, arrayBytes / 32);
    e.arrayBytes = static_cast<std::uint64_t>(arrayBytes);
    e.l2CacheBytes = kL2;
    return e;
}

}  // namespace

TEST(Gap, PercentIsMeasuredOverModelAndEmptyWithoutAModel) {
    EXPECT_DOUBLE_EQ(*gapPercent(100.0, 103.0), 3.0);
    EXPECT_DOUBLE_EQ(*gapPercent(100.0, 50.0), -50.0);
    EXPECT_FALSE(gapPercent(0.0, 10.0).has_value());
}

TEST(Gap, WithinTenPercentNeedsNoExplanation) {
    KernelEvidence e = exactKernel(kGB);
    e.measured.dramBytesRead *= 1.09;
    EXPECT_TRUE(explainKernelGap(e).empty());
}

TEST(Gap, ArraysSmallerThanTheL2StayInCache) {
    KernelEvidence e = exactKernel(16e6);
    e.measured.dramBytesRead = 0.1 * 16e6;  // read what the previous kernel left in the L2
    const auto findings = explainKernelGap(e);
    ASSERT_TRUE(has(findings, GapReason::FitsInL2));
    EXPECT_NE(findings.front().words.find("L2"), std::string::npos);
    // The same shortfall with arrays larger than the L2 is not explained by the cache.
    KernelEvidence big = exactKernel(kGB);
    big.measured.dramBytesRead = 0.1 * kGB;
    EXPECT_FALSE(has(explainKernelGap(big), GapReason::FitsInL2));
    EXPECT_TRUE(has(explainKernelGap(big), GapReason::Unexplained));
}

TEST(Gap, AnArrayOfUnknownSizeIsNotSaidToFitInTheL2) {
    // A kernel the registry cannot size (a learner's kernel from a recording): no claim of "0.0
    // MB".
    KernelEvidence e = exactKernel(kGB);
    e.arrayBytes = 0;
    e.measured.dramBytesWritten = 0.5 * kGB;
    EXPECT_FALSE(has(explainKernelGap(e), GapReason::FitsInL2));
}

TEST(Gap, WritesDeferredIntoTheNextKernel) {
    KernelEvidence first = exactKernel(kGB);
    first.measured.dramBytesWritten = 0.7 * kGB;
    KernelCounters next = counted(kGB, 1.3 * kGB, kGB / 32, kGB / 32);
    first.nextMeasured = next;
    first.nextModelBytesWritten = kGB;
    EXPECT_TRUE(has(explainKernelGap(first), GapReason::DeferredWrites));

    KernelEvidence second = exactKernel(kGB);
    second.measured = next;
    second.previousMeasured = first.measured;
    second.previousModelBytesWritten = kGB;
    EXPECT_TRUE(has(explainKernelGap(second), GapReason::DeferredWrites));

    // Without a next kernel or samples after the end, the shortfall is not called deferred.
    KernelEvidence alone = exactKernel(kGB);
    alone.measured.dramBytesWritten = 0.7 * kGB;
    EXPECT_FALSE(has(explainKernelGap(alone), GapReason::DeferredWrites));
    alone.writesAfterEnd = 0.3 * kGB;  // the sampling run saw them land after the kernel
    EXPECT_TRUE(has(explainKernelGap(alone), GapReason::DeferredWrites));
}

// A kernel counted alone from a cleared L2 ends with its last writes still dirty in the L2 (the
// MLP's silu at prefill: 88 MB of 117 MB counted): at most the L2's size is missing, and said so.
TEST(Gap, WritesStillInTheL2AtTheEndAreSaidToComeLater) {
    KernelEvidence e = exactKernel(117e6);
    e.l2CacheBytes = 62'914'560;
    e.measured.dramBytesWritten = 88.2e6;
    const auto findings = explainKernelGap(e);
    ASSERT_TRUE(has(findings, GapReason::DeferredWrites));
    EXPECT_FALSE(has(findings, GapReason::Unexplained));
    EXPECT_NE(findings.front().words.find("28.8 MB"), std::string::npos) << findings.front().words;
    EXPECT_NE(findings.front().words.find("still in the 62.9 MB L2"), std::string::npos)
        << findings.front().words;
    // More missing than the L2 holds is not explained by it.
    e.measured.dramBytesWritten = 40e6;
    EXPECT_TRUE(has(explainKernelGap(e), GapReason::Unexplained));
}

// The decode MLP's silu: 28.7 kB written by the model, none counted. The sentence names the
// kilobytes, as the table beside it does, not "0.0 MB".
TEST(Gap, ASmallKernelsMissingWritesAreSaidInKilobytes) {
    KernelEvidence e = exactKernel(28'672);
    e.l2CacheBytes = 62'914'560;
    e.measured.dramBytesWritten = 0;
    const auto findings = explainKernelGap(e);
    ASSERT_TRUE(has(findings, GapReason::DeferredWrites));
    const auto deferred = std::find_if(findings.begin(), findings.end(), [](const GapFinding& f) {
        return f.reason == GapReason::DeferredWrites;
    });
    EXPECT_EQ(deferred->words.rfind("28.7 kB of this kernel's writes", 0), 0u) << deferred->words;
    EXPECT_EQ(deferred->words.find("0.0 MB"), std::string::npos) << deferred->words;
}

TEST(Gap, WritesCausedByAFreeJustBefore) {
    KernelEvidence e = exactKernel(kGB);
    e.measured.dramBytesWritten = 1.4 * kGB;
    EXPECT_FALSE(has(explainKernelGap(e), GapReason::FreeWriteBack));
    e.bytesFreedJustBefore = static_cast<std::uint64_t>(kGB);
    EXPECT_TRUE(has(explainKernelGap(e), GapReason::FreeWriteBack));
}

TEST(Gap, MoreSectorsThanTheBytesNeedIsUncoalesced) {
    KernelEvidence e = exactKernel(kGB);
    e.measured.dramBytesRead = 4 * kGB;
    e.measured.sectorsRead = 4 * kGB / 32;  // 4 sectors per 32 bytes used
    const auto findings = explainKernelGap(e);
    EXPECT_TRUE(has(findings, GapReason::Uncoalesced));
    EXPECT_FALSE(has(findings, GapReason::Unexplained));
}

// A library GEMM at Llama-3-8B prefill: 151 MB of operands read once by the model, 3.03 GB
// requested from the L2 and 572 MB from DRAM. The cause is the tiles' re-reads past the L2,
// said with the measured numbers; without the L2 requests it stays unexplained.
TEST(Gap, TilesReReadPastTheL2ExplainAGemmThatReadsMoreThanItsOperands) {
    KernelEvidence e = exactKernel(151e6);
    e.modelBytesWritten = 117e6;
    e.measured.dramBytesWritten = 117e6;
    e.measured.sectorsWritten = 117e6 / 32;
    e.measured.dramBytesRead = 572e6;
    e.l2CacheBytes = 60'000'000;
    e.measured.l2SectorsRead = 3.03e9 / 32;
    const auto findings = explainKernelGap(e);
    ASSERT_TRUE(has(findings, GapReason::ReReadsPastL2));
    EXPECT_FALSE(has(findings, GapReason::Unexplained));
    const std::string& words = findings.front().words;
    EXPECT_NE(words.find("3.03 GB"), std::string::npos) << words;
    EXPECT_NE(words.find("20.1x"), std::string::npos) << words;
    EXPECT_NE(words.find("572 MB"), std::string::npos) << words;
    e.measured.l2SectorsRead = 0;
    EXPECT_TRUE(has(explainKernelGap(e), GapReason::Unexplained));
}

TEST(Gap, ExplainGapsCoversMeasuredVariantsAndFreeWriteBackOnTheTimeline) {
    RunReport report;
    report.device.l2CacheBytes = kL2;
    VariantResult measured;
    measured.pipeline = "swiglu";
    measured.variant = "scratch";
    measured.problem.dimensions["N"] = 4000000;  // 16 MB arrays
    measured.modelBytesWritten = 2 * 16000000;
    KernelResult kernel;
    kernel.name = "swiglu_scratch";
    kernel.modelBytesRead = 3 * 16000000;
    kernel.modelBytesWritten = 2 * 16000000;
    kernel.counters = counted(2 * 16e6, 1 * 16e6, 3 * 16e6 / 32, 2 * 16e6 / 32);
    measured.kernels.push_back(kernel);
    // Timeline: the kernel, then the scratch buffer freed, then writes with no kernel running.
    measured.timeline.push_back({TimelineSpan::Kind::Kernel, "swiglu_scratch", 0, 1000, 0});
    measured.timeline.push_back({TimelineSpan::Kind::Allocation, "scratch", -10, 2000, 16000000});
    measured.samples.push_back({500, 1000, 2e12, 2e12});    // 1e6 bytes each way
    measured.samples.push_back({2000, 3000, 0.0, 1.2e13});  // 12e6 bytes written
    report.variants.push_back(measured);
    VariantResult unmeasured = measured;
    unmeasured.variant = "fused";
    unmeasured.kernels[0].counters.reset();
    report.variants.push_back(unmeasured);

    const std::vector<VariantGap> gaps = explainGaps(report);
    ASSERT_EQ(gaps.size(), 1u);
    EXPECT_EQ(gaps[0].variant, "scratch");
    ASSERT_TRUE(gaps[0].percent.has_value());
    EXPECT_NEAR(*gaps[0].percent, -40.0, 1e-9);
    EXPECT_TRUE(has(gaps[0].findings, GapReason::FitsInL2));
    EXPECT_TRUE(has(gaps[0].findings, GapReason::FreeWriteBack));
    EXPECT_DOUBLE_EQ(writesAfterFreesOutsideKernels(report.variants[0]), 12e6);
}

// A tiled kernel that re-reads its weights: the model charges every request, the L2 serves the
// re-reads, and the words say so with the buffers and factors.
TEST(GapRules, ReReadsServedByTheL2AreExplained) {
    KernelEvidence e;
    e.name = "swiglu_mlp_lesson";
    e.modelBytesRead = 3.7e9;
    e.modelBytesWritten = 1.0e6;
    e.compulsoryBytesRead = 18.4e6;
    e.reReadBuffers = "x 704x, gate_up 256x";
    e.arraysAreOneSize = false;
    e.arrayBytes = 11'534'336;
    e.l2CacheBytes = 62'914'560;
    e.measured.dramBytesRead = 1.7e6;
    e.measured.dramBytesWritten = 1.2e6;
    const std::vector<GapFinding> findings = explainKernelGap(e);
    ASSERT_FALSE(findings.empty());
    EXPECT_EQ(findings.front().reason, GapReason::ReReadsFromL2);
    EXPECT_NE(findings.front().words.find("gate_up 256x"), std::string::npos)
        << findings.front().words;
    // Without re-reads in the model, the same numbers are not explained by them.
    e.reReadBuffers.clear();
    e.compulsoryBytesRead = e.modelBytesRead;
    for (const GapFinding& finding : explainKernelGap(e))
        EXPECT_NE(finding.reason, GapReason::ReReadsFromL2);
}

// The lesson kernel at prefill-512, counted five times (the H200's numbers): its DRAM reads move
// by 1.9x while its L2 requests stay put, and the words give the range beside the re-reads.
TEST(GapRules, DramBytesThatMoveFromLaunchToLaunchAreShownWithTheirRange) {
    KernelEvidence e;
    e.name = "swiglu_mlp_lesson";
    e.modelBytesRead = 302.5e9;
    e.modelBytesWritten = 4.2e6;
    e.compulsoryBytesRead = 160e6;
    e.reReadBuffers = "x 352x, gate_up 16x";
    e.arraysAreOneSize = false;
    e.l2CacheBytes = 62'914'560;
    e.measured = counted(5.571e9, 4.4e6, 0.0, 0.0);
    e.measured.l2SectorsRead = 9.0e9;
    e.measured.countedLaunches = 5;
    e.measured.dramReadSpread = CountSpread{3.795e9, 7.214e9};
    e.measured.dramWrittenSpread = CountSpread{4.3e6, 4.5e6};
    e.measured.l2SectorsReadSpread = CountSpread{8.99e9, 9.03e9};
    const std::vector<GapFinding> findings = explainKernelGap(e);
    ASSERT_TRUE(has(findings, GapReason::ReReadsFromL2));
    ASSERT_TRUE(has(findings, GapReason::VariesByLaunch));
    EXPECT_FALSE(has(findings, GapReason::Unexplained));
    const auto spread = std::find_if(findings.begin(), findings.end(), [](const GapFinding& f) {
        return f.reason == GapReason::VariesByLaunch;
    });
    for (const char* words :
         {"Counted 5 times", "3.795 GB", "7.214 GB", "median 5.571 GB", "moved by 0.4%", "one draw",
          "locks them to base", "--clock-control none"})
        EXPECT_NE(spread->words.find(words), std::string::npos) << words << ": " << spread->words;
    // The writes stayed within 3%: the words name the reads alone.
    EXPECT_EQ(spread->words.find("writes ranged"), std::string::npos) << spread->words;

    // Counts that stayed within 3% or 1 MB say nothing of a range.
    e.measured.dramReadSpread = CountSpread{5.50e9, 5.60e9};
    EXPECT_FALSE(has(explainKernelGap(e), GapReason::VariesByLaunch));
    // Nor does a kernel counted once.
    e.measured.dramReadSpread = CountSpread{3.795e9, 7.214e9};
    e.measured.countedLaunches.reset();
    EXPECT_FALSE(has(explainKernelGap(e), GapReason::VariesByLaunch));
}

// With no other cause, a spread that holds the model's bytes explains the gap; one that does not
// still leaves it unexplained, the range said beside it.
TEST(GapRules, ASpreadExplainsAGapOnlyWhereItHoldsTheModel) {
    KernelEvidence e = exactKernel(100e6);
    e.arrayBytes = 0;  // no cache rule applies
    e.measured.dramBytesRead = 130e6;
    e.measured.countedLaunches = 3;
    e.measured.dramReadSpread = CountSpread{95e6, 160e6};
    e.measured.dramWrittenSpread = CountSpread{100e6, 100e6};
    std::vector<GapFinding> findings = explainKernelGap(e);
    EXPECT_TRUE(has(findings, GapReason::VariesByLaunch));
    EXPECT_FALSE(has(findings, GapReason::Unexplained));

    e.measured.dramReadSpread = CountSpread{120e6, 160e6};
    findings = explainKernelGap(e);
    EXPECT_TRUE(has(findings, GapReason::VariesByLaunch));
    EXPECT_TRUE(has(findings, GapReason::Unexplained));
}
