#pragma once
// The CUDA kernels as the host sees them: one table entry per KernelId and vector width (1 or 4).
// No CUDA headers here, so that plain C++ code (the backend, the tests) can include it.
#include <cstdint>

#include "pipelines/kernel_id.h"

namespace fusescope {

// Every elementwise kernel runs with blocks of this many threads.
constexpr int kCudaBlockSize = 256;

// A kernel's parameters are `pointerArgs` buffer pointers, in the order of the registry's
// KernelSpec::args, followed by the element count N as std::uint64_t.
struct CudaKernel {
    const void* function = nullptr;  // the __global__ function: launch, attributes, occupancy
    int pointerArgs = 0;
    const char* name = "";  // "swiglu_fused<4>", for messages
};

// The table: {} (function == nullptr) for an id or width that has no kernel.
CudaKernel cudaKernel(KernelId id, int vectorWidth);

// Per family, in affine.cu and swiglu.cu.
CudaKernel affineCudaKernel(KernelId id, int vectorWidth);
CudaKernel swigluCudaKernel(KernelId id, int vectorWidth);

}  // namespace fusescope
