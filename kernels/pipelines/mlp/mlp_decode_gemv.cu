// The production variant at decode sizes (M <= 16): the MLP's bytes are its weights, so each
// weight row is streamed once by one warp in 16-byte loads, several in flight per lane, over
// enough blocks to fill every SM. The few rows of x (or h) come from the L1/L2. These CUDA-core
// kernels take float32 and rows that are not whole 16-byte packs; bfloat16 otherwise goes to the
// tensor-core kernels, since here the multiply-adds per weight grow with M.
#include "pipelines/mlp/mlp_device.cuh"
#include "pipelines/mlp/mlp_launch.h"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_tensor_gemv.h"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kThreads = production::kWarpsPerBlock * 32;

__device__ __forceinline__ float warpSum(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

template <typename T>
__device__ __forceinline__ float dotPack(const Pack<T>& a, const Pack<T>& b) {
    float sum = 0;
#pragma unroll
    for (int e = 0; e < kPack<T>; ++e) sum = fmaf(toFloat(a.v[e]), toFloat(b.v[e]), sum);
    return sum;
}

// One warp per weight row r of length K: acc[m] += act[m] . weight[r] for the first `rows` of
// act (kRows is the compiled bound). kPaired: weight and second are gate and up, and the warp
// writes h = silu(g) * u; otherwise it writes the plain product.
template <typename T, int kRows, bool kPaired>
__global__ void __launch_bounds__(kThreads)
    gemvRows(const T* __restrict__ act, const T* __restrict__ weight, const T* __restrict__ second,
             T* __restrict__ result, int rows, std::int64_t weightRows, std::int64_t K,
             bool packed) {
    constexpr int kUnroll = kPaired ? 4 : 8;  // 16-byte loads in flight per lane and matrix
    constexpr int kP = kPack<T>;
    const std::int64_t r =
        static_cast<std::int64_t>(blockIdx.x) * production::kWarpsPerBlock + threadIdx.x / 32;
    if (r >= weightRows) return;
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const T* w = weight + r * K;
    const T* w2 = kPaired ? second + r * K : nullptr;
    float acc[kRows], acc2[kRows];
#pragma unroll
    for (int m = 0; m < kRows; ++m) acc[m] = acc2[m] = 0.0f;

    const std::int64_t packs = packed ? K / kP : 0;
    // While the previous kernel finishes, pull the start of this warp's rows into the L2.
#pragma unroll
    for (int s = 0; s < kUnroll; ++s)
        if (lane + 32 * s < packs) {
            prefetchL2(w + (lane + 32 * s) * kP);
            if constexpr (kPaired) prefetchL2(w2 + (lane + 32 * s) * kP);
        }
    allowNextGrid();
    waitForPreviousGrid();
    std::int64_t p = lane;
    for (; p + 32 * (kUnroll - 1) < packs; p += 32 * kUnroll) {
        Pack<T> wv[kUnroll], wv2[kUnroll];
#pragma unroll
        for (int s = 0; s < kUnroll; ++s) {
            wv[s] = loadPackStreaming(w + (p + 32 * s) * kP);
            if constexpr (kPaired) wv2[s] = loadPackStreaming(w2 + (p + 32 * s) * kP);
        }
#pragma unroll
        for (int s = 0; s < kUnroll; ++s)
#pragma unroll
            for (int m = 0; m < kRows; ++m) {
                if (m >= rows) break;
                const Pack<T> a = loadPack(act + m * K + (p + 32 * s) * kP);
                acc[m] += dotPack(a, wv[s]);
                if constexpr (kPaired) acc2[m] += dotPack(a, wv2[s]);
            }
    }
    for (; p < packs; p += 32) {
        const Pack<T> wv = loadPackStreaming(w + p * kP);
        Pack<T> wv2{};
        if constexpr (kPaired) wv2 = loadPackStreaming(w2 + p * kP);
#pragma unroll
        for (int m = 0; m < kRows; ++m) {
            if (m >= rows) break;
            const Pack<T> a = loadPack(act + m * K + p * kP);
            acc[m] += dotPack(a, wv);
            if constexpr (kPaired) acc2[m] += dotPack(a, wv2);
        }
    }
    // Elements the packs did not cover (all of them when rows are not 16-byte aligned).
    for (std::int64_t k = packs * kP + lane; k < K; k += 32) {
        const float wk = toFloat(w[k]);
        const float wk2 = kPaired ? toFloat(w2[k]) : 0.0f;
#pragma unroll
        for (int m = 0; m < kRows; ++m) {
            if (m >= rows) break;
            const float a = toFloat(act[m * K + k]);
            acc[m] = fmaf(a, wk, acc[m]);
            if constexpr (kPaired) acc2[m] = fmaf(a, wk2, acc2[m]);
        }
    }
#pragma unroll
    for (int m = 0; m < kRows; ++m) {
        if (m >= rows) break;
        const float sum = warpSum(acc[m]);
        const float value = kPaired ? silu(sum) * warpSum(acc2[m]) : sum;
        if (lane == 0) result[m * weightRows + r] = fromFloat<T>(value);
    }
}

template <typename T, bool kPaired>
Status launchGemv(const MlpShape& shape, bool overlap, const T* act, const T* weight,
                  const T* second, T* result, std::int64_t weightRows, std::int64_t K,
                  const char* name, cudaStream_t stream) {
    const bool packed = K % kPack<T> == 0;
    const unsigned blocks = static_cast<unsigned>(ceilDiv(weightRows, production::kWarpsPerBlock));
    const int rows = static_cast<int>(shape.M);
    const auto launch = [&](auto kernel) {
        return launchMaybeOverlapped(kernel, dim3(blocks), dim3(kThreads), 0, stream, overlap, name,
                                     act, weight, second, result, rows, weightRows, K, packed);
    };
    if (rows <= 1) return launch(gemvRows<T, 1, kPaired>);
    if (rows <= 4) return launch(gemvRows<T, 4, kPaired>);
    if (rows <= 8) return launch(gemvRows<T, 8, kPaired>);
    return launch(gemvRows<T, 16, kPaired>);
}

}  // namespace

DecodeConfig decodeDefaults(DType dtype, const MlpShape& shape) {
    DecodeConfig config;
    config.tensorCores = production::decodeTensorPolicy(dtype, shape.M);
    config.narrowRings = config.tensorCores && shape.M <= 8;
    return config;
}

Status launchDecodeGateUpSilu(DType dtype, const MlpShape& shape, const DecodeConfig& config,
                              const void* x, const void* gate, const void* up, void* h,
                              cudaStream_t stream) {
    if (shape.M > kDecodeMaxRows)
        return {ErrorCode::InvalidArgument, "the decode kernels take at most 16 rows"};
    if (config.tensorCores && dtype == DType::Bfloat16 && shape.H % 8 == 0)
        return launchTensorGemvGateUpSilu(shape, config, x, gate, up, h, stream);
    return withElementType(dtype, [&](auto* type) {
        using T = std::remove_pointer_t<decltype(type)>;
        return launchGemv<T, true>(shape, config.overlap, static_cast<const T*>(x),
                                   static_cast<const T*>(gate), static_cast<const T*>(up),
                                   static_cast<T*>(h), shape.I, shape.H, "gemv_gate_up_silu launch",
                                   stream);
    });
}

Status launchDecodeDown(DType dtype, const MlpShape& shape, const DecodeConfig& config,
                        const void* h, const void* down, void* out, cudaStream_t stream) {
    if (shape.M > kDecodeMaxRows)
        return {ErrorCode::InvalidArgument, "the decode kernels take at most 16 rows"};
    if (config.tensorCores && dtype == DType::Bfloat16 && shape.I % 8 == 0)
        return launchTensorGemvDown(shape, config, h, down, out, stream);
    return withElementType(dtype, [&](auto* type) {
        using T = std::remove_pointer_t<decltype(type)>;
        return launchGemv<T, false>(shape, config.overlap, static_cast<const T*>(h),
                                    static_cast<const T*>(down), nullptr, static_cast<T*>(out),
                                    shape.H, shape.I, "gemv_down launch", stream);
    });
}

Status launchGemvGateUpSilu(DType dtype, const MlpShape& shape, const void* x, const void* gate,
                            const void* up, void* h, cudaStream_t stream) {
    return launchDecodeGateUpSilu(dtype, shape, decodeDefaults(dtype, shape), x, gate, up, h,
                                  stream);
}

Status launchGemvDown(DType dtype, const MlpShape& shape, const void* h, const void* down,
                      void* out, cudaStream_t stream) {
    return launchDecodeDown(dtype, shape, decodeDefaults(dtype, shape), h, down, out, stream);
}

}  // namespace fusescope::mlp
