// Affine chain out = x*2 + 3 (lesson, part A): the CUDA kernels. Registry entry, CPU reference and
// CPU kernels are in affine.cpp; parameter order follows the registry's `args`.
#include "pipelines/cuda_elementwise.cuh"

namespace fusescope {
namespace {

using cuda::mapElements;

template <int kVector>
__global__ void affineMul2(const float* __restrict__ x, float* __restrict__ tmp, std::uint64_t n) {
    mapElements<kVector>(
        n, [](float v) { return v * 2.0f; }, tmp, x);
}

template <int kVector>
__global__ void affineAdd3(const float* __restrict__ tmp, float* __restrict__ out,
                           std::uint64_t n) {
    mapElements<kVector>(
        n, [](float t) { return t + 3.0f; }, out, tmp);
}

template <int kVector>
__global__ void affineFused(const float* __restrict__ x, float* __restrict__ out, std::uint64_t n) {
    mapElements<kVector>(
        n, [](float v) { return v * 2.0f + 3.0f; }, out, x);
}

}  // namespace

std::span<const CudaElementwiseEntry> affineCudaKernels() {
    using cuda::makeCudaKernel;
    static const CudaElementwiseEntry kernels[] = {
        {"mul2", makeCudaKernel(affineMul2<1>, "mul2<1>"), makeCudaKernel(affineMul2<4>, "mul2<4>")},
        {"add3", makeCudaKernel(affineAdd3<1>, "add3<1>"), makeCudaKernel(affineAdd3<4>, "add3<4>")},
        {"affine_fused", makeCudaKernel(affineFused<1>, "affine_fused<1>"),
         makeCudaKernel(affineFused<4>, "affine_fused<4>")},
    };
    return kernels;
}

}  // namespace fusescope
