#pragma once
// The predicted ledger of a variant, before it runs: per kernel, the full arrays it reads and
// writes, its passes (one per array read or written), its bytes and the bytes that must exist
// while it runs; and the variant's totals. Bytes are requested bytes of float32 arrays of N
// elements: what the kernels ask memory for, which a DRAM counter measures when the arrays are
// far larger than the caches.
#include <cstdint>
#include <string>
#include <vector>

#include "expr/expression.h"
#include "expr/variant_plan.h"

namespace fusescope::expr {

struct LedgerKernel {
    std::string name;
    std::vector<std::string> reads;
    std::vector<std::string> writes;
    int operations = 0;
    double flopsPerElement = 0.0;  // useful FLOPs
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesWritten = 0;
    // Inputs and outputs, and the intermediates written before it or by it that it or a later
    // kernel still reads: what an allocator that frees each array after its last use holds.
    std::uint64_t bytesLive = 0;

    int passes() const { return static_cast<int>(reads.size() + writes.size()); }
    std::uint64_t bytes() const { return bytesRead + bytesWritten; }
};

struct Ledger {
    std::string variant;
    std::vector<LedgerKernel> kernels;
    std::vector<std::string> intermediates;  // arrays fusion would keep in registers
    int passes = 0;
    std::uint64_t bytes = 0;
    double flops = 0.0;
    std::uint64_t peakBytesLive = 0;  // the largest bytesLive of its kernels
    // Every array of the variant at once, as FuseScope's runner allocates them before the first
    // launch: the peak in flight a run measures.
    std::uint64_t peakBytesInFlight = 0;
};

Ledger predictLedger(const Program& program, const VariantPlan& plan, std::uint64_t n);

}  // namespace fusescope::expr
