// The CPU kernels compiled for AVX2 + FMA (CMake adds -mavx2 -mfma to this file only, on
// x86-64). VEX-encoded code also never pays the penalty that legacy SSE code pays when a
// library has left the upper halves of the YMM registers dirty.
#include "pipelines/cpu_kernel_table.h"

namespace fusescope {

std::span<const CpuKernelEntry> avx2FmaCpuKernels() {
    static const bool runs = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (!runs) return {};
    return kCpuKernelTable;
}

}  // namespace fusescope
