#pragma once
// The elementwise CUDA kernels as the host sees them: per execution key, one kernel for each
// supported vector width (kSupportedVectorWidths in the registry).
// No CUDA headers here, so that plain C++ code (the backend, the tests) can include it.
#include <cstdint>
#include <span>

namespace fusescope {

// Every elementwise kernel runs with blocks of this many threads.
constexpr int kCudaBlockSize = 256;

// A kernel's parameters are `pointerArgs` buffer pointers, in the order of the registry's
// KernelSpec::args, followed by the element count N as std::uint64_t.
struct CudaKernel {
    const void* function = nullptr;  // the __global__ function: launch, attributes, occupancy
    int pointerArgs = 0;
    const char* name = "";  // "swiglu_fused<4>", for messages
    // Launch shape. At width 4 most kernels get one thread per float4 group: measured on the
    // H200 at N = 2^28, that ran the fused SwiGLU in 0.736 ms against 0.788 ms for a grid of
    // resident blocks looping over the array. At width 1 resident blocks were faster (fused
    // 1.127 against 1.297 ms), so width 1 keeps them. The lab's two-loop scratch kernel keeps
    // resident blocks at both widths: only then does each of its loops sweep the whole array
    // before the next begins, as in the lab (with one element per thread, loop 2 would read
    // loop 1's value back from the cache).
    bool residentGrid = false;
};

struct CudaElementwiseEntry {
    const char* execution;  // the KernelSpec's execution key
    CudaKernel scalar;      // vector width 1
    CudaKernel vector;      // vector width 4
};

// Per family, in affine.cu and swiglu.cu.
std::span<const CudaElementwiseEntry> affineCudaKernels();
std::span<const CudaElementwiseEntry> swigluCudaKernels();

}  // namespace fusescope
