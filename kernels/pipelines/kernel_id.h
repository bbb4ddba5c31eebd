#pragma once
// Every kernel any variant launches. Each backend has one launcher per id (tests check it).
namespace fusescope {

enum class KernelId : int {
    AffineMul2,     // tmp = x * 2
    AffineAdd3,     // out = tmp + 3
    AffineFused,    // out = x * 2 + 3
    SwigluScratch,  // scratch = silu(gate); out = scratch * up  (two loops, one kernel)
    SwigluSilu,     // scratch = silu(gate)
    SwigluMul,      // out = scratch * up
    SwigluFused,    // out = silu(gate) * up, silu kept in a register
    Count
};

constexpr int kKernelIdCount = static_cast<int>(KernelId::Count);

}  // namespace fusescope
