// The elementwise kernels of the unfused and merged variants, as a framework runs them: SiLU in
// place, the multiply, and the serving engines' fused SiLU*mul over a merged gate_up output.
// Grid-stride loops over 16-byte packs when the rows allow it, single elements otherwise.
#include "pipelines/mlp/mlp_device.cuh"
#include "pipelines/mlp/mlp_launch.h"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kThreads = 256;

// Calls op(index) for every pack index in [0, count).
template <typename Op>
__device__ __forceinline__ void gridStride(std::int64_t count, Op op) {
    const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride)
        op(i);
}

template <typename T, int kWidth>
__global__ void siluInPlace(T* g, std::int64_t groups) {
    gridStride(groups, [&](std::int64_t i) {
        if constexpr (kWidth == 1) {
            g[i] = fromFloat<T>(silu(toFloat(g[i])));
        } else {
            Pack<T> p = loadPack(g + i * kWidth);
#pragma unroll
            for (int e = 0; e < kWidth; ++e) p.v[e] = fromFloat<T>(silu(toFloat(p.v[e])));
            storePack(g + i * kWidth, p);
        }
    });
}

template <typename T, int kWidth>
__global__ void multiply(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ out,
                         std::int64_t groups) {
    gridStride(groups, [&](std::int64_t i) {
        if constexpr (kWidth == 1) {
            out[i] = fromFloat<T>(toFloat(a[i]) * toFloat(b[i]));
        } else {
            const Pack<T> pa = loadPack(a + i * kWidth), pb = loadPack(b + i * kWidth);
            Pack<T> r;
#pragma unroll
            for (int e = 0; e < kWidth; ++e)
                r.v[e] = fromFloat<T>(toFloat(pa.v[e]) * toFloat(pb.v[e]));
            storePack(out + i * kWidth, r);
        }
    });
}

// Group i covers kWidth elements of one row of h (I a multiple of kWidth when kWidth > 1).
template <typename T, int kWidth>
__global__ void siluMulRows(const T* __restrict__ gu, T* __restrict__ h, std::int64_t I,
                            std::int64_t groups) {
    const std::int64_t groupsPerRow = I / kWidth;
    gridStride(groups, [&](std::int64_t i) {
        const std::int64_t row = i / groupsPerRow, col = i % groupsPerRow * kWidth;
        const T* g = gu + row * 2 * I + col;
        if constexpr (kWidth == 1) {
            h[row * I + col] = fromFloat<T>(silu(toFloat(g[0])) * toFloat(g[I]));
        } else {
            const Pack<T> pg = loadPack(g), pu = loadPack(g + I);
            Pack<T> r;
#pragma unroll
            for (int e = 0; e < kWidth; ++e)
                r.v[e] = fromFloat<T>(silu(toFloat(pg.v[e])) * toFloat(pu.v[e]));
            storePack(h + row * I + col, r);
        }
    });
}

unsigned blocksFor(std::int64_t groups) {
    // Enough blocks to fill the GPU many times over; the loop strides over the rest.
    const std::int64_t wanted = ceilDiv(groups, kThreads);
    return static_cast<unsigned>(wanted < 132 * 64 ? (wanted > 0 ? wanted : 1) : 132 * 64);
}

}  // namespace

Status launchSiluInPlace(DType dtype, void* g, std::int64_t n, cudaStream_t stream) {
    return withElementType(dtype, [&](auto* type) {
        using T = std::remove_pointer_t<decltype(type)>;
        constexpr int kW = kPack<T>;
        if (n % kW == 0)
            siluInPlace<T, kW>
                <<<blocksFor(n / kW), kThreads, 0, stream>>>(static_cast<T*>(g), n / kW);
        else
            siluInPlace<T, 1><<<blocksFor(n), kThreads, 0, stream>>>(static_cast<T*>(g), n);
        return launchStatus("silu launch");
    });
}

Status launchMultiply(DType dtype, const void* a, const void* b, void* out, std::int64_t n,
                      cudaStream_t stream) {
    return withElementType(dtype, [&](auto* type) {
        using T = std::remove_pointer_t<decltype(type)>;
        constexpr int kW = kPack<T>;
        const auto* pa = static_cast<const T*>(a);
        const auto* pb = static_cast<const T*>(b);
        auto* po = static_cast<T*>(out);
        if (n % kW == 0)
            multiply<T, kW><<<blocksFor(n / kW), kThreads, 0, stream>>>(pa, pb, po, n / kW);
        else
            multiply<T, 1><<<blocksFor(n), kThreads, 0, stream>>>(pa, pb, po, n);
        return launchStatus("multiply launch");
    });
}

Status launchSiluMulRows(DType dtype, const void* gu, void* h, std::int64_t M, std::int64_t I,
                         cudaStream_t stream) {
    return withElementType(dtype, [&](auto* type) {
        using T = std::remove_pointer_t<decltype(type)>;
        constexpr int kW = kPack<T>;
        const auto* in = static_cast<const T*>(gu);
        auto* out = static_cast<T*>(h);
        if (I % kW == 0)
            siluMulRows<T, kW>
                <<<blocksFor(M * I / kW), kThreads, 0, stream>>>(in, out, I, M * I / kW);
        else
            siluMulRows<T, 1><<<blocksFor(M * I), kThreads, 0, stream>>>(in, out, I, M * I);
        return launchStatus("silu_mul launch");
    });
}

}  // namespace fusescope::mlp
