// The CPU kernels for the x86-64 baseline (or whatever the target's default is): they run on
// every CPU the program runs on.
#include "pipelines/cpu_kernel_table.h"

namespace fusescope {

std::span<const CpuKernelEntry> baselineCpuKernels() {
    return kCpuKernelTable;
}

}  // namespace fusescope
