#include "pipelines/cpu_kernels.h"

namespace fusescope {

CpuInstructionSet bestCpuInstructionSet() {
    return avx2FmaCpuKernels().empty() ? CpuInstructionSet::Baseline : CpuInstructionSet::Avx2Fma;
}

std::string_view cpuInstructionSetName(CpuInstructionSet set) {
    return set == CpuInstructionSet::Avx2Fma ? "AVX2+FMA" : "baseline SIMD";
}

CpuKernelFn cpuKernel(std::string_view execution, int vectorWidth, CpuInstructionSet set) {
    const std::span<const CpuKernelEntry> table =
        set == CpuInstructionSet::Avx2Fma ? avx2FmaCpuKernels() : baselineCpuKernels();
    for (const CpuKernelEntry& entry : table)
        if (entry.execution == execution) return vectorWidth == 1 ? entry.scalar : entry.simd;
    return nullptr;
}

CpuKernelFn cpuKernel(std::string_view execution, int vectorWidth) {
    return cpuKernel(execution, vectorWidth, bestCpuInstructionSet());
}

}  // namespace fusescope
