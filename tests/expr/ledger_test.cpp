// Predicted ledgers of the lesson's chains and of chains of our own, each worked out by hand in
// the comments: which arrays each kernel reads and writes, its passes, bytes and live bytes.
#include <gtest/gtest.h>

#include <string>

#include "expr/ledger.h"
#include "expr/parser.h"
#include "parsed_program.h"

namespace fusescope::expr {
namespace {

constexpr std::uint64_t kN = 1000;
constexpr std::uint64_t kArray = kN * 4;

using Names = std::vector<std::string>;

Ledger ledgerOf(const std::string& text, Strategy strategy) {
    const Program program = parsed(text);
    return predictLedger(program, planVariant(program, strategy), kN);
}

TEST(ExpressionLedger, AffineUnfusedIsTheLessonsFourPasses) {
    // mul: read x, write tmp1; add: read tmp1, write out. x, tmp1 and out all live throughout.
    const Ledger ledger = ledgerOf("out = x * 2 + 3", Strategy::Unfused);
    ASSERT_EQ(ledger.kernels.size(), 2u);
    EXPECT_EQ(ledger.kernels[0].name, "k1_mul");
    EXPECT_EQ(ledger.kernels[0].reads, Names{"x"});
    EXPECT_EQ(ledger.kernels[0].writes, Names{"tmp1"});
    EXPECT_EQ(ledger.kernels[1].name, "k2_add");
    EXPECT_EQ(ledger.kernels[1].reads, Names{"tmp1"});
    EXPECT_EQ(ledger.kernels[1].writes, Names{"out"});
    EXPECT_EQ(ledger.passes, 4);
    EXPECT_EQ(ledger.bytes, 4 * kArray);
    EXPECT_EQ(ledger.kernels[0].bytesRead, kArray);
    EXPECT_EQ(ledger.kernels[0].bytesWritten, kArray);
    EXPECT_EQ(ledger.kernels[0].bytesLive, 3 * kArray);
    EXPECT_EQ(ledger.peakBytesInFlight, 3 * kArray);
    EXPECT_EQ(ledger.intermediates, Names{"tmp1"});
    EXPECT_DOUBLE_EQ(ledger.flops, 2.0 * kN);
}

TEST(ExpressionLedger, AffineFusedIsTwoPasses) {
    const Ledger ledger = ledgerOf("out = x * 2 + 3", Strategy::Fused);
    ASSERT_EQ(ledger.kernels.size(), 1u);
    EXPECT_EQ(ledger.kernels[0].reads, Names{"x"});
    EXPECT_EQ(ledger.kernels[0].writes, Names{"out"});
    EXPECT_EQ(ledger.kernels[0].operations, 2);
    EXPECT_EQ(ledger.passes, 2);
    EXPECT_EQ(ledger.bytes, 2 * kArray);
    EXPECT_EQ(ledger.peakBytesInFlight, 2 * kArray);
    EXPECT_TRUE(ledger.intermediates.empty());
}

TEST(ExpressionLedger, SiluGateMatchesTheBuiltInSwiglu) {
    // Unfused: silu reads g, writes tmp1 (2); mul reads tmp1 and u, writes out (3): 5 passes, as
    // the shipped two-launch SwiGLU. Fused: g, u, out: 3 passes and N*4 bytes less in flight.
    const Ledger unfused = ledgerOf("out = silu(g) * u", Strategy::Unfused);
    EXPECT_EQ(unfused.passes, 5);
    EXPECT_EQ(unfused.kernels[1].reads, (Names{"tmp1", "u"}));
    EXPECT_EQ(unfused.peakBytesInFlight, 4 * kArray);
    EXPECT_DOUBLE_EQ(unfused.flops, 5.0 * kN);
    const Ledger fused = ledgerOf("out = silu(g) * u", Strategy::Fused);
    EXPECT_EQ(fused.passes, 3);
    EXPECT_EQ(fused.kernels[0].reads, (Names{"g", "u"}));
    EXPECT_EQ(fused.peakBytesInFlight, 3 * kArray);
}

TEST(ExpressionLedger, NormalizationUnfusedKeepsOnlyLiveIntermediates) {
    // y = (x - m) * rsqrt(v + 1e-5) * w + b: six operations.
    //   k1 sub:   x, m   -> tmp1          k2 add:   v     -> tmp2
    //   k3 rsqrt: tmp2   -> tmp3          k4 mul:   tmp1, tmp3 -> tmp4
    //   k5 mul:   tmp4, w -> tmp5         k6 add:   tmp5, b    -> y
    // Passes 3 + 2 + 2 + 3 + 3 + 3 = 16. Inputs and output (6 arrays) live throughout; tmp1 from
    // k1 to k4, tmp2 k2-k3, tmp3 k3-k4, tmp4 k4-k5, tmp5 k5-k6. Most at once: k3 (tmp1, tmp2,
    // tmp3) and k4 (tmp1, tmp3, tmp4): 9 arrays. Allocated together: 11.
    const Ledger ledger = ledgerOf("y = (x - m) * rsqrt(v + 1e-5) * w + b", Strategy::Unfused);
    ASSERT_EQ(ledger.kernels.size(), 6u);
    EXPECT_EQ(ledger.kernels[3].reads, (Names{"tmp1", "tmp3"}));
    EXPECT_EQ(ledger.kernels[4].reads, (Names{"tmp4", "w"}));
    EXPECT_EQ(ledger.passes, 16);
    EXPECT_EQ(ledger.bytes, 16 * kArray);
    const std::uint64_t live[] = {7, 8, 9, 9, 8, 7};
    for (int k = 0; k < 6; ++k) EXPECT_EQ(ledger.kernels[k].bytesLive, live[k] * kArray) << k;
    EXPECT_EQ(ledger.peakBytesLive, 9 * kArray);
    EXPECT_EQ(ledger.peakBytesInFlight, 11 * kArray);

    const Ledger fused = ledgerOf("y = (x - m) * rsqrt(v + 1e-5) * w + b", Strategy::Fused);
    EXPECT_EQ(fused.passes, 6);  // five inputs read, one output written
    EXPECT_EQ(fused.peakBytesInFlight, 6 * kArray);
}

TEST(ExpressionLedger, SplitKeepsNamedValuesThatCrossKernels) {
    // Kernel 1: t = x * 2 (t read by kernel 2: written as the array t). Kernel 2: s = t + 3 and
    // out = s * s, s staying in a register; out2 = t - 1 reads t again.
    //   part1: x -> t (2 passes); part2: t -> out, out2 (3 passes).
    const std::string text = "t = x * 2 | s = t + 3; out = s * s; out2 = t - 1";
    const Ledger split = ledgerOf(text, Strategy::Split);
    ASSERT_EQ(split.kernels.size(), 2u);
    EXPECT_EQ(split.kernels[0].name, "part1");
    EXPECT_EQ(split.kernels[0].writes, Names{"t"});
    EXPECT_EQ(split.kernels[1].reads, Names{"t"});
    EXPECT_EQ(split.kernels[1].writes, (Names{"out", "out2"}));
    EXPECT_EQ(split.passes, 5);
    EXPECT_EQ(split.intermediates, Names{"t"});
    // Unfused: t, s become arrays: mul x->t, add t->s, mul s->out, sub t->out2: 2+2+2+2.
    const Ledger unfused = ledgerOf(text, Strategy::Unfused);
    EXPECT_EQ(unfused.passes, 8);
    EXPECT_EQ(unfused.kernels[2].reads, Names{"s"});  // s * s reads s once
    EXPECT_EQ(unfused.intermediates, (Names{"t", "s"}));
    // Fused: x in, out and out2 out.
    EXPECT_EQ(ledgerOf(text, Strategy::Fused).passes, 3);
}

TEST(ExpressionLedger, SplitReadsAValueBackFromTheOutputHoldingIt) {
    // exp(x) is the output c; part2 reads it back from c instead of writing another array:
    //   part1: x -> c; part2: c -> b.
    const Ledger split = ledgerOf("a = exp(x); c = a | b = a + 1", Strategy::Split);
    ASSERT_EQ(split.kernels.size(), 2u);
    EXPECT_EQ(split.kernels[0].writes, Names{"c"});
    EXPECT_EQ(split.kernels[1].reads, Names{"c"});
    EXPECT_EQ(split.kernels[1].writes, Names{"b"});
    EXPECT_TRUE(split.intermediates.empty());
    EXPECT_EQ(split.passes, 4);
}

TEST(ExpressionLedger, IntermediateNamesAvoidTheChainsOwnNames) {
    // tmp1 is an input here, so the unnamed intermediate becomes tmp2.
    const Ledger ledger = ledgerOf("out = tmp1 * 2 + 3", Strategy::Unfused);
    EXPECT_EQ(ledger.intermediates, Names{"tmp2"});
}

TEST(ExpressionLedger, SplitWithoutOperationsInAGroupLaunchesNothingForIt) {
    const Ledger split = ledgerOf("t = x | out = t * 2", Strategy::Split);
    ASSERT_EQ(split.kernels.size(), 1u);
    EXPECT_EQ(split.passes, 2);
}

}  // namespace
}  // namespace fusescope::expr
