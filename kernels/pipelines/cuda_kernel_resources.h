#pragma once
// What the compiler and the occupancy calculator say about a loaded kernel on the current
// device: registers, spills, shared memory, blocks per SM and occupancy. CUDA code only; for a
// kernel compiled ahead of time or loaded from a run-time compiled module alike.
#include <cstdint>

#include "pipelines/kernel_execution.h"

namespace fusescope {

// `kernel` is the entry point (a __global__ function's address or a cudaKernel_t), launched
// with `threads` per block, `dynamicSharedBytes` of dynamic shared memory (set as its limit
// first, as a launch does) on `gridSize` blocks. Unknown (known == false) when CUDA cannot say;
// origin is "precompiled".
KernelResources kernelResourcesOf(const void* kernel, int threads, int dynamicSharedBytes,
                                  std::int64_t gridSize);

}  // namespace fusescope
