// The production variant's bfloat16 decode kernels on the tensor cores: 16 weight rows are the
// MMA's M dimension and x's (or h's) at most 16 rows its N, so the multiply-adds per weight no
// longer grow with M and every weight byte is read once whatever M is. A dot product does not
// care in which order k is summed, so each lane reads 16 contiguous bytes of a weight row and of
// x and feeds them to mma.m16n8k16 under one consistent permutation of k; a warp's loads of one
// 64-element chunk cover 128 contiguous bytes of each of its 16 rows. A block is one group of 16
// rows; its `split` warps take contiguous slices of K, so each streams long runs of every row,
// and add their partial tiles through shared memory in a fixed order (deterministic).
#include "pipelines/mlp/mlp_device.cuh"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_tensor_gemv.h"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kMaxWarps = 8;
constexpr int kRowsPerBlock = production::kTensorRowsPerBlock;
constexpr int kChunk = 64;  // elements of K per lane-quad step: 2 x 16 bytes per lane and row

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

__device__ __forceinline__ uint4 loadWeight(const bf16* row, bool valid) {
    return valid ? __ldcs(reinterpret_cast<const uint4*>(row)) : make_uint4(0, 0, 0, 0);
}

__device__ __forceinline__ uint4 loadActivation(const bf16* row, bool valid) {
    return valid ? *reinterpret_cast<const uint4*>(row) : make_uint4(0, 0, 0, 0);
}

// One 64-element chunk's operands for one lane: [half] is k offset quad*8 (+32 for half 1).
template <int kMatrices, int kTiles>
struct ChunkOperands {
    uint4 lo[kMatrices][2], hi[kMatrices][2], x[kTiles][2];
};

// kTiles: 8-column tiles of activation rows (1 for M <= 8, 2 for M <= 16). kPaired: gate and up
// with SiLU*up into h; otherwise the plain product into out. K is a multiple of 8.
template <int kTiles, bool kPaired>
__global__ void __launch_bounds__(kMaxWarps * 32)
    tensorGemv(const bf16* __restrict__ act, const bf16* __restrict__ weight,
               const bf16* __restrict__ second, bf16* __restrict__ result, int rows,
               std::int64_t weightRows, std::int64_t K) {
    constexpr int kMatrices = kPaired ? 2 : 1;
    constexpr int kUnroll = kPaired ? 2 : 4;  // chunks whose loads are in flight at once
    using Operands = ChunkOperands<kMatrices, kTiles>;
    __shared__ float partial[kMaxWarps][kMatrices][kRowsPerBlock][8 * kTiles];
    const int split = static_cast<int>(blockDim.x) / 32;
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int group = lane / 4, quad = lane % 4;
    const std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * kRowsPerBlock;
    const bool loValid = row0 + group < weightRows, hiValid = row0 + group + 8 < weightRows;
    const bf16* wLo[kMatrices];
    const bf16* wHi[kMatrices];
    wLo[0] = weight + (loValid ? row0 + group : 0) * K + quad * 8;
    wHi[0] = weight + (hiValid ? row0 + group + 8 : 0) * K + quad * 8;
    if constexpr (kPaired) {
        wLo[1] = second + (loValid ? row0 + group : 0) * K + quad * 8;
        wHi[1] = second + (hiValid ? row0 + group + 8 : 0) * K + quad * 8;
    }
    // This warp's slice of K, in whole chunks but the last.
    const std::int64_t chunks = (K + kChunk - 1) / kChunk;
    const std::int64_t perWarp = (chunks + split - 1) / split;
    const std::int64_t kBegin = warp * perWarp * kChunk;
    const std::int64_t kEnd = kBegin + perWarp * kChunk < K ? kBegin + perWarp * kChunk : K;

    // While the previous kernel finishes, pull the start of this warp's weights into the L2.
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
        const std::int64_t k = kBegin + u * kChunk;
        if (k < kEnd)
#pragma unroll
            for (int m = 0; m < kMatrices; ++m) {
                prefetchL2(wLo[m] + k);
                prefetchL2(wHi[m] + k);
            }
    }
    allowNextGrid();
    waitForPreviousGrid();

    const bf16* x[kTiles];
    bool xValid[kTiles];
#pragma unroll
    for (int t = 0; t < kTiles; ++t) {
        xValid[t] = group + 8 * t < rows;
        x[t] = act + (xValid[t] ? group + 8 * t : 0) * K + quad * 8;
    }
    float c[kMatrices][kTiles][4] = {};
    const auto load = [&](Operands& o, std::int64_t k, bool whole) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const std::int64_t kk = k + half * 32;
            const bool in = whole || kk + quad * 8 < kEnd;
#pragma unroll
            for (int m = 0; m < kMatrices; ++m) {
                o.lo[m][half] = loadWeight(wLo[m] + kk, loValid && in);
                o.hi[m][half] = loadWeight(wHi[m] + kk, hiValid && in);
            }
#pragma unroll
            for (int t = 0; t < kTiles; ++t)
                o.x[t][half] = loadActivation(x[t] + kk, xValid[t] && in);
        }
    };
    const auto multiply = [&](const Operands& o) {
#pragma unroll
        for (int half = 0; half < 2; ++half)
#pragma unroll
            for (int m = 0; m < kMatrices; ++m)
#pragma unroll
                for (int t = 0; t < kTiles; ++t) {
                    const uint4& xv = o.x[t][half];
                    mma16816(c[m][t], o.lo[m][half], o.hi[m][half], false, xv.x, xv.y);
                    mma16816(c[m][t], o.lo[m][half], o.hi[m][half], true, xv.z, xv.w);
                }
    };
    std::int64_t k = kBegin;
    for (; k + kUnroll * kChunk <= kEnd; k += kUnroll * kChunk) {
        Operands o[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) load(o[u], k + u * kChunk, true);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) multiply(o[u]);
    }
    for (; k < kEnd; k += kChunk) {
        Operands o;
        load(o, k, false);
        multiply(o);
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
    for (int e = threadIdx.x; e < kRowsPerBlock * rows; e += blockDim.x) {
        const int r = e % kRowsPerBlock, col = e / kRowsPerBlock;
        if (row0 + r >= weightRows) continue;
        float sums[kMatrices] = {};
        for (int w = 0; w < split; ++w)
#pragma unroll
            for (int m = 0; m < kMatrices; ++m) sums[m] += partial[w][m][r][col];
        const float value = kPaired ? silu(sums[0]) * sums[kMatrices - 1] : sums[0];
        result[col * weightRows + row0 + r] = __float2bfloat16_rn(value);
    }
}

template <bool kPaired>
Status launch(const MlpShape& shape, int split, bool overlap, const void* act, const void* weight,
              const void* second, void* result, std::int64_t weightRows, std::int64_t K,
              const char* name, cudaStream_t stream) {
    if (split < 1 || split > kMaxWarps)
        return {ErrorCode::InvalidArgument, "the tensor-core GEMV splits K over 1 to 8 warps"};
    const dim3 grid(static_cast<unsigned>(ceilDiv(weightRows, kRowsPerBlock)));
    const dim3 block(static_cast<unsigned>(32 * split));
    const int rows = static_cast<int>(shape.M);
    const auto* a = static_cast<const bf16*>(act);
    const auto* w = static_cast<const bf16*>(weight);
    const auto* w2 = static_cast<const bf16*>(second);
    auto* r = static_cast<bf16*>(result);
    if (rows <= 8)
        return launchMaybeOverlapped(tensorGemv<1, kPaired>, grid, block, 0, stream, overlap, name,
                                     a, w, w2, r, rows, weightRows, K);
    return launchMaybeOverlapped(tensorGemv<2, kPaired>, grid, block, 0, stream, overlap, name, a,
                                 w, w2, r, rows, weightRows, K);
}

}  // namespace

Status launchTensorGemvGateUpSilu(const MlpShape& shape, const DecodeConfig& config, const void* x,
                                  const void* gate, const void* up, void* h, cudaStream_t stream) {
    return launch<true>(shape, config.gateUpSplit, config.overlap, x, gate, up, h, shape.I, shape.H,
                        "gemv_gate_up_silu launch", stream);
}

Status launchTensorGemvDown(const MlpShape& shape, const DecodeConfig& config, const void* h,
                            const void* down, void* out, cudaStream_t stream) {
    return launch<false>(shape, config.downSplit, config.overlap, h, down, nullptr, out, shape.H,
                         shape.I, "gemv_down launch", stream);
}

}  // namespace fusescope::mlp
