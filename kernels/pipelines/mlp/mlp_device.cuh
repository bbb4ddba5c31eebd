#pragma once
// Device building blocks shared by the MLP kernels: element conversions, 16-byte packs, SiLU, and
// the host-side choice of element type and of the vector path.
#include <cuda_bf16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/status.h"
#include "pipelines/mlp/mlp_shape.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp::device {

using bf16 = __nv_bfloat16;

__device__ __forceinline__ float toFloat(float v) {
    return v;
}
__device__ __forceinline__ float toFloat(bf16 v) {
    return __bfloat162float(v);
}

template <typename T>
__device__ __forceinline__ T fromFloat(float v) {
    if constexpr (std::is_same_v<T, float>)
        return v;
    else
        return __float2bfloat16_rn(v);
}

// expf, not __expf: the float32 variants are held to 1e-4 of the double reference.
__device__ __forceinline__ float silu(float g) {
    return g / (1.0f + expf(-g));
}

// Elements of T in one 16-byte access.
template <typename T>
inline constexpr int kPack = 16 / static_cast<int>(sizeof(T));

template <typename T>
struct Pack {
    T v[kPack<T>];
};

template <typename T>
__device__ __forceinline__ Pack<T> loadPack(const T* p) {
    const uint4 raw = *reinterpret_cast<const uint4*>(p);
    Pack<T> pack;
    memcpy(&pack, &raw, sizeof raw);
    return pack;
}

// Streamed once: evict-first, so the weights do not push reused data out of the caches.
template <typename T>
__device__ __forceinline__ Pack<T> loadPackStreaming(const T* p) {
    const uint4 raw = __ldcs(reinterpret_cast<const uint4*>(p));
    Pack<T> pack;
    memcpy(&pack, &raw, sizeof raw);
    return pack;
}

template <typename T>
__device__ __forceinline__ void storePack(T* p, const Pack<T>& pack) {
    uint4 raw;
    memcpy(&raw, &pack, sizeof raw);
    *reinterpret_cast<uint4*>(p) = raw;
}

// Whether rows of these lengths keep every 16-byte pack of a cudaMalloc'd matrix aligned.
inline bool packAligned(DType dtype, std::int64_t a, std::int64_t b = 0) {
    const auto pack = static_cast<std::int64_t>(16 / dtypeBytes(dtype));
    return a % pack == 0 && b % pack == 0;
}

// Calls f with a null pointer of the dtype's element type.
template <typename F>
Status withElementType(DType dtype, F&& f) {
    if (!storesBfloat16(dtype)) return f(static_cast<float*>(nullptr));
    return f(static_cast<bf16*>(nullptr));
}

inline Status launchStatus(const char* kernel) {
    return cudaStatus(static_cast<int>(cudaGetLastError()), kernel);
}

}  // namespace fusescope::mlp::device

namespace fusescope::mlp::device {

// Programmatic dependent launch (sm_90): a kernel launched with the attribute may start while the
// previous one finishes; waitForPreviousGrid() returns once that one has completed and its
// writes are visible (at once when launched without the attribute).
__device__ __forceinline__ void waitForPreviousGrid() {
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
}
__device__ __forceinline__ void allowNextGrid() {
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
}
__device__ __forceinline__ void prefetchL2(const void* p) {
    asm volatile("prefetch.global.L2 [%0];\n" ::"l"(p));
}

// Launches kernel<<<grid, block, smem, stream>>>(args...), with programmatic dependent launch
// when `overlap`.
template <typename... Params, typename... Args>
Status launchMaybeOverlapped(void (*kernel)(Params...), dim3 grid, dim3 block, unsigned smem,
                             cudaStream_t stream, bool overlap, const char* name, Args... args) {
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = overlap ? 1 : 0;
    return cudaStatus(static_cast<int>(cudaLaunchKernelEx(&config, kernel, Params(args)...)), name);
}

}  // namespace fusescope::mlp::device
