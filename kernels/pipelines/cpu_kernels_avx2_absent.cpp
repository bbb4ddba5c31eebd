// Targets other than x86-64 have no AVX2 build of the CPU kernels.
#include "pipelines/cpu_kernels.h"

namespace fusescope {

std::span<const CpuKernelEntry> avx2FmaCpuKernels() {
    return {};
}

}  // namespace fusescope
