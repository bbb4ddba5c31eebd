#pragma once
// CPU versions of every kernel, beside each family's reference. A CPU kernel processes the
// element range [begin, end); the CPU backend splits N across threads.
#include <cstdint>

#include "pipelines/kernel_id.h"

namespace fusescope {

using CpuKernelFn = void (*)(void* const* args, std::uint64_t begin, std::uint64_t end,
                             int vectorWidth);

CpuKernelFn cpuKernel(KernelId id);  // nullptr if the id has none (a test forbids that)

// Per family, filled in by affine.cpp and swiglu.cpp.
CpuKernelFn affineCpuKernel(KernelId id);
CpuKernelFn swigluCpuKernel(KernelId id);

}  // namespace fusescope
