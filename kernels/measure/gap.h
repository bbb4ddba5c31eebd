#pragma once
// Model beside measurement: per kernel and per variant, the gap in percent between the pass
// model's bytes and the measured DRAM bytes, and where it exceeds 10% the reasons the evidence
// supports, in plain words.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/runner.h"

namespace fusescope {

inline constexpr double kGapThresholdPercent = 10.0;

enum class GapReason {
    FitsInL2,        // the arrays are smaller than the L2: they stay in cache between kernels
    ReReadsFromL2,   // the model charges re-reads (a weight per output tile) that the L2 serves
    ReReadsPastL2,   // a tiled kernel re-reads its operands and the L2 cannot keep them all
    DeferredWrites,  // writes reached DRAM after the kernel ended (L2 write-back)
    FreeWriteBack,   // freeing memory made the GPU write it back, with no kernel running
    Uncoalesced,     // more 32-byte sectors than the bytes need
    VariesByLaunch,  // counted several times, the same launch moved DRAM bytes by more than 3%
    Unexplained      // the gap is real and no rule explains it
};

struct GapFinding {
    GapReason reason = GapReason::Unexplained;
    std::string words;
};

// (measured - model) / model in percent; empty when the model expects no bytes.
std::optional<double> gapPercent(double modelBytes, double measuredBytes);

// What one kernel's gap is judged on. Optional parts are evidence that may be missing.
struct KernelEvidence {
    std::string name;
    double modelBytesRead = 0.0;
    double modelBytesWritten = 0.0;
    KernelCounters measured;
    std::uint64_t arrayBytes = 0;  // one N-element array; the largest buffer touched otherwise
    // Bytes the kernel would read if it read every buffer it touches once, and the buffers the
    // model charges more often than that (tiled kernels re-reading weights), with the factor.
    double compulsoryBytesRead = 0.0;
    std::string reReadBuffers;       // "gate_up 16x, x 44x"
    bool arraysAreOneSize = true;    // every buffer has N elements (the elementwise pipelines)
    std::uint64_t l2CacheBytes = 0;  // DeviceInfo::l2CacheBytes (0: unknown)
    // The kernel before and after this one in the variant (their counters and model writes).
    std::optional<KernelCounters> previousMeasured;
    double previousModelBytesWritten = 0.0;
    std::optional<KernelCounters> nextMeasured;
    double nextModelBytesWritten = 0.0;
    // From the sampling run: DRAM writes after this kernel ended, before the next one began,
    // and bytes freed shortly before this kernel began.
    std::optional<double> writesAfterEnd;
    std::uint64_t bytesFreedJustBefore = 0;
};

struct KernelGap {
    std::string name;
    double modelBytes = 0.0;
    double measuredBytes = 0.0;
    std::optional<double> percent;
    std::vector<GapFinding> findings;  // empty when |gap| <= 10%
};

std::vector<GapFinding> explainKernelGap(const KernelEvidence& evidence);

struct VariantGap {
    std::string variant;
    double modelBytes = 0.0;
    double measuredBytes = 0.0;
    std::optional<double> percent;
    std::vector<GapFinding> findings;  // the kernels' reasons plus the timeline's
    std::vector<KernelGap> kernels;
};

// Run-level evidence: DRAM writes the samples saw after a free while no kernel ran.
double writesAfterFreesOutsideKernels(const VariantResult& variant);

// The variant's gap, where every kernel has counters (`l2CacheBytes`: the device's, 0 unknown).
std::optional<VariantGap> explainVariantGap(const VariantResult& variant,
                                            std::uint64_t l2CacheBytes);
// Every variant whose kernels have counters; the others are left out.
std::vector<VariantGap> explainGaps(const RunReport& report);

}  // namespace fusescope
