// The production variant's bfloat16 decode kernels on the tensor cores: weight rows are the MMA's
// M dimension (16 per block) and x's (or h's) at most 16 rows its N, so the CUDA cores' per-row
// multiply-adds, which grew with M, are gone. A dot product does not care in which order k is
// summed, so each lane reads 16 contiguous bytes of a weight row and of x and feeds them to
// mma.m16n8k16 under one consistent permutation of k. The block's 8 warps split K and add their
// partial tiles through shared memory before the epilogue.
#include "pipelines/mlp/mlp_device.cuh"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_tensor_gemv.h"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kWarps = production::kWarpsPerBlock;
constexpr int kRowsPerBlock = production::kTensorRowsPerBlock;
constexpr int kChunk = production::kTensorChunk;
constexpr int kUnroll = 4;  // chunks whose loads are in flight before the first MMA

__device__ __forceinline__ void mma16816(float (&c)[4], const uint4& lo, const uint4& hi,
                                         bool second, unsigned b0, unsigned b1) {
    const unsigned a0 = second ? lo.z : lo.x, a1 = second ? hi.z : hi.x;
    const unsigned a2 = second ? lo.w : lo.y, a3 = second ? hi.w : hi.y;
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

__device__ __forceinline__ uint4 loadWeight(const bf16* row, bool valid, std::int64_t k) {
    return valid ? __ldcs(reinterpret_cast<const uint4*>(row + k)) : make_uint4(0, 0, 0, 0);
}

__device__ __forceinline__ uint4 loadActivation(const bf16* row, bool valid, std::int64_t k) {
    return valid ? *reinterpret_cast<const uint4*>(row + k) : make_uint4(0, 0, 0, 0);
}

// kTiles: 8-column tiles of activation rows (1 for M <= 8, 2 for M <= 16). kPaired: gate and up
// with SiLU*up into h; otherwise the plain product into out.
template <int kTiles, bool kPaired>
__global__ void __launch_bounds__(kWarps * 32)
    tensorGemv(const bf16* __restrict__ act, const bf16* __restrict__ weight,
               const bf16* __restrict__ second, bf16* __restrict__ result, int rows,
               std::int64_t weightRows, std::int64_t K) {
    constexpr int kMatrices = kPaired ? 2 : 1;
    __shared__ float partial[kWarps][kMatrices][kRowsPerBlock][8 * kTiles];
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int group = lane / 4, quad = lane % 4;
    const std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * kRowsPerBlock;
    const bool loValid = row0 + group < weightRows, hiValid = row0 + group + 8 < weightRows;
    const bf16* wLo[kMatrices];
    const bf16* wHi[kMatrices];
    wLo[0] = weight + (loValid ? row0 + group : 0) * K;
    wHi[0] = weight + (hiValid ? row0 + group + 8 : 0) * K;
    if constexpr (kPaired) {
        wLo[1] = second + (loValid ? row0 + group : 0) * K;
        wHi[1] = second + (hiValid ? row0 + group + 8 : 0) * K;
    }
    const bf16* x[kTiles];
    bool xValid[kTiles];
#pragma unroll
    for (int t = 0; t < kTiles; ++t) {
        xValid[t] = group + 8 * t < rows;
        x[t] = act + (xValid[t] ? group + 8 * t : 0) * K;
    }
    float c[kMatrices][kTiles][4] = {};
    const std::int64_t chunks = K / kChunk;
    const auto step = [&](const uint4(&lo)[kMatrices], const uint4(&hi)[kMatrices],
                          const uint4(&xv)[kTiles]) {
#pragma unroll
        for (int m = 0; m < kMatrices; ++m)
#pragma unroll
            for (int t = 0; t < kTiles; ++t) {
                mma16816(c[m][t], lo[m], hi[m], false, xv[t].x, xv[t].y);
                mma16816(c[m][t], lo[m], hi[m], true, xv[t].z, xv[t].w);
            }
    };
    std::int64_t q = warp;
    for (; q + kWarps * (kUnroll - 1) < chunks; q += kWarps * kUnroll) {
        uint4 lo[kUnroll][kMatrices], hi[kUnroll][kMatrices], xv[kUnroll][kTiles];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const std::int64_t k = (q + kWarps * u) * kChunk + quad * 8;
#pragma unroll
            for (int m = 0; m < kMatrices; ++m) {
                lo[u][m] = loadWeight(wLo[m], loValid, k);
                hi[u][m] = loadWeight(wHi[m], hiValid, k);
            }
#pragma unroll
            for (int t = 0; t < kTiles; ++t) xv[u][t] = loadActivation(x[t], xValid[t], k);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) step(lo[u], hi[u], xv[u]);
    }
    for (; q < chunks; q += kWarps) {
        const std::int64_t k = q * kChunk + quad * 8;
        uint4 lo[kMatrices], hi[kMatrices], xv[kTiles];
#pragma unroll
        for (int m = 0; m < kMatrices; ++m) {
            lo[m] = loadWeight(wLo[m], loValid, k);
            hi[m] = loadWeight(wHi[m], hiValid, k);
        }
#pragma unroll
        for (int t = 0; t < kTiles; ++t) xv[t] = loadActivation(x[t], xValid[t], k);
        step(lo, hi, xv);
    }
    // C fragment: c[0], c[1] at (row group, columns 2*quad, 2*quad+1); c[2], c[3] at row group+8.
#pragma unroll
    for (int m = 0; m < kMatrices; ++m)
#pragma unroll
        for (int t = 0; t < kTiles; ++t) {
            partial[warp][m][group][8 * t + 2 * quad] = c[m][t][0];
            partial[warp][m][group][8 * t + 2 * quad + 1] = c[m][t][1];
            partial[warp][m][group + 8][8 * t + 2 * quad] = c[m][t][2];
            partial[warp][m][group + 8][8 * t + 2 * quad + 1] = c[m][t][3];
        }
    __syncthreads();
    for (int e = threadIdx.x; e < kRowsPerBlock * rows; e += kWarps * 32) {
        const int r = e % kRowsPerBlock, col = e / kRowsPerBlock;
        if (row0 + r >= weightRows) continue;
        float sums[kMatrices] = {};
#pragma unroll
        for (int w = 0; w < kWarps; ++w)
#pragma unroll
            for (int m = 0; m < kMatrices; ++m) sums[m] += partial[w][m][r][col];
        const float value = kPaired ? silu(sums[0]) * sums[kMatrices - 1] : sums[0];
        result[col * weightRows + row0 + r] = __float2bfloat16_rn(value);
    }
}

template <bool kPaired>
Status launch(const MlpShape& shape, const void* act, const void* weight, const void* second,
              void* result, std::int64_t weightRows, std::int64_t K, const char* name,
              cudaStream_t stream) {
    const auto blocks = static_cast<unsigned>(ceilDiv(weightRows, kRowsPerBlock));
    const int rows = static_cast<int>(shape.M);
    const auto* a = static_cast<const bf16*>(act);
    const auto* w = static_cast<const bf16*>(weight);
    const auto* w2 = static_cast<const bf16*>(second);
    auto* r = static_cast<bf16*>(result);
    if (rows <= 8)
        tensorGemv<1, kPaired>
            <<<blocks, kWarps * 32, 0, stream>>>(a, w, w2, r, rows, weightRows, K);
    else
        tensorGemv<2, kPaired>
            <<<blocks, kWarps * 32, 0, stream>>>(a, w, w2, r, rows, weightRows, K);
    return launchStatus(name);
}

}  // namespace

Status launchTensorGemvGateUpSilu(const MlpShape& shape, const void* x, const void* gate,
                                  const void* up, void* h, cudaStream_t stream) {
    return launch<true>(shape, x, gate, up, h, shape.I, shape.H, "gemv_gate_up_silu launch",
                        stream);
}

Status launchTensorGemvDown(const MlpShape& shape, const void* h, const void* down, void* out,
                            cudaStream_t stream) {
    return launch<false>(shape, h, down, nullptr, out, shape.H, shape.I, "gemv_down launch",
                         stream);
}

}  // namespace fusescope::mlp
