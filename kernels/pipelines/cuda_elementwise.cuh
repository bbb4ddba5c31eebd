#pragma once
// Device-side building blocks of the elementwise kernels: 64-bit grid-stride loops over single
// floats (vector width 1) or 16-byte float4 groups plus a scalar tail (vector width 4), and the
// host table entry made from a kernel's own signature.
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include "pipelines/cuda_kernels.h"

namespace fusescope::cuda {

// Float4 groups a thread loads per loop step in the width-4 path, all issued before any is used:
// a bandwidth-bound kernel needs many bytes in flight per thread to approach copy speed.
constexpr int kGroupsPerStep = 2;

__device__ __forceinline__ float silu(float g) {
    return g / (1.0f + expf(-g));
}

struct GridStride {
    std::uint64_t first;
    std::uint64_t stride;
};

// 64-bit from the start: N may exceed 2^31.
__device__ __forceinline__ GridStride gridStride() {
    return {static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x,
            static_cast<std::uint64_t>(blockDim.x) * gridDim.x};
}

__device__ __forceinline__ float4 loadGroup(const float* data, std::uint64_t group) {
    return reinterpret_cast<const float4*>(data)[group];
}

__device__ __forceinline__ void storeGroup(float* data, std::uint64_t group, float4 value) {
    reinterpret_cast<float4*>(data)[group] = value;
}

template <typename Op, typename... Groups>
__device__ __forceinline__ float4 applyToGroup(Op op, Groups... groups) {
    return make_float4(op(groups.x...), op(groups.y...), op(groups.z...), op(groups.w...));
}

// out[i] = op(in[i]...) for every i in [0, n). A thread visits the same indices on every call
// with the same n and launch shape, so a kernel that maps twice reads back only what it wrote
// itself and needs no grid-wide synchronization between its loops.
template <int kVector, typename Op, typename... Inputs>
__device__ __forceinline__ void mapElements(std::uint64_t n, Op op, float* out, Inputs... in) {
    static_assert(kVector == 1 || kVector == 4, "vector width 1 or 4");
    const GridStride grid = gridStride();
    std::uint64_t scalarBegin = 0;
    if constexpr (kVector == 4) {
        const std::uint64_t groups = n / 4;
        std::uint64_t g = grid.first;
        for (; g + (kGroupsPerStep - 1) * grid.stride < groups; g += kGroupsPerStep * grid.stride) {
            float4 results[kGroupsPerStep];
#pragma unroll
            for (int s = 0; s < kGroupsPerStep; ++s)
                results[s] = applyToGroup(op, loadGroup(in, g + s * grid.stride)...);
#pragma unroll
            for (int s = 0; s < kGroupsPerStep; ++s)
                storeGroup(out, g + s * grid.stride, results[s]);
        }
        for (; g < groups; g += grid.stride)
            storeGroup(out, g, applyToGroup(op, loadGroup(in, g)...));
        scalarBegin = groups * 4;
    }
    // Width 1: the whole array. Width 4: the 0 to 3 elements after the last full group.
    for (std::uint64_t i = scalarBegin + grid.first; i < n; i += grid.stride) out[i] = op(in[i]...);
}

// The table entry of a kernel whose parameters are buffer pointers followed by N.
template <typename... Params>
CudaKernel makeCudaKernel(void (*kernel)(Params...), const char* name,
                          bool residentGrid = false) {
    constexpr std::size_t kPointers = sizeof...(Params) - 1;
    using Last = std::tuple_element_t<kPointers, std::tuple<Params...>>;
    static_assert(std::is_same_v<Last, std::uint64_t>, "the last kernel parameter is N");
    static_assert((std::size_t{std::is_pointer_v<Params>} + ...) == kPointers,
                  "every parameter before N is a buffer pointer");
    return {reinterpret_cast<const void*>(kernel), static_cast<int>(kPointers), name, residentGrid};
}

}  // namespace fusescope::cuda
