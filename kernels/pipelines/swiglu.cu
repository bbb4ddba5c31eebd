// SwiGLU activation out = silu(gate) * up (the lab; lesson, part B): the CUDA kernels. Registry
// entry, CPU reference and CPU kernels are in swiglu.cpp; parameter order follows the registry's
// `args`. float32 with expf (no fast math).
#include "pipelines/cuda_elementwise.cuh"

namespace fusescope {
namespace {

using cuda::mapElements;
using cuda::silu;

// The lab's starter: one kernel, two grid-stride loops through an N-sized global scratch.
// `scratch` is written and read back in this kernel, so it is not declared __restrict__: that
// keeps the compiler from reading it through the read-only (non-coherent) cache path.
template <int kVector>
__global__ void swigluScratch(const float* __restrict__ gate, const float* __restrict__ up,
                              float* scratch, float* __restrict__ out, std::uint64_t n) {
    // Pass 1: compute SiLU and write the intermediate to global scratch.
    mapElements<kVector>(
        n, [](float g) { return silu(g); }, scratch, gate);
    // Pass 2: read that intermediate back and multiply by the up branch.
    mapElements<kVector>(
        n, [](float s, float u) { return s * u; }, out, static_cast<const float*>(scratch), up);
}

// Framework style, first launch: scratch = silu(gate).
template <int kVector>
__global__ void swigluSilu(const float* __restrict__ gate, float* __restrict__ scratch,
                           std::uint64_t n) {
    mapElements<kVector>(
        n, [](float g) { return silu(g); }, scratch, gate);
}

// Framework style, second launch: out = scratch * up.
template <int kVector>
__global__ void swigluMul(const float* __restrict__ scratch, const float* __restrict__ up,
                          float* __restrict__ out, std::uint64_t n) {
    mapElements<kVector>(
        n, [](float s, float u) { return s * u; }, out, scratch, up);
}

// Fused: one loop, silu(gate) stays in a register.
template <int kVector>
__global__ void swigluFused(const float* __restrict__ gate, const float* __restrict__ up,
                            float* __restrict__ out, std::uint64_t n) {
    mapElements<kVector>(
        n, [](float g, float u) { return silu(g) * u; }, out, gate, up);
}

}  // namespace

std::span<const CudaElementwiseEntry> swigluCudaKernels() {
    constexpr bool kResidentGrid = true;  // the scratch kernel's loops each sweep the array
    using cuda::makeCudaKernel;
    static const CudaElementwiseEntry kernels[] = {
        {"swiglu_scratch", makeCudaKernel(swigluScratch<1>, "swiglu_scratch<1>", kResidentGrid),
         makeCudaKernel(swigluScratch<4>, "swiglu_scratch<4>", kResidentGrid)},
        {"silu", makeCudaKernel(swigluSilu<1>, "silu<1>"), makeCudaKernel(swigluSilu<4>, "silu<4>")},
        {"mul", makeCudaKernel(swigluMul<1>, "mul<1>"), makeCudaKernel(swigluMul<4>, "mul<4>")},
        {"swiglu_fused", makeCudaKernel(swigluFused<1>, "swiglu_fused<1>"),
         makeCudaKernel(swigluFused<4>, "swiglu_fused<4>")},
    };
    return kernels;
}

}  // namespace fusescope
