// The production variant's bfloat16 decode kernels on the tensor cores. The weights are streamed
// as the CUDA-core GEMV streams them (each warp copies 512 contiguous bytes of one row, or 256
// of each of two, per instruction, which keeps DRAM pages open), but through cp.async into a
// multi-stage shared-memory ring rather than registers, x's (or h's) slice of each stage with them;
// ldmatrix then hands 16 weight rows x 16 k to mma.m16n8k16 as A, with x's at most 16 rows as B. So
// the multiply-adds per weight no longer grow with M, every weight byte is read once whatever M is,
// and the first stages are in flight before the previous kernel has finished (programmatic
// dependent launch).
#include <type_traits>

#include "pipelines/mlp/mlp_async_copy.cuh"
#include "pipelines/mlp/mlp_device.cuh"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_tensor_gemv.h"
#include "platform/kernel_shared_memory.h"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kRows = production::kTensorRowsPerBlock;  // 16 weight rows a block

// A ring's shape: stages, elements of K a stage holds, warps of a block.
template <int kStages_, int kStageK_, int kWarps_>
struct Ring {
    static constexpr int kStages = kStages_, kStageK = kStageK_, kWarps = kWarps_;
};
// Gate and up: 3 stages of 256 (60 or 72 KB, 3 blocks an SM). Down alone: 6 stages, since its
// 16-row blocks are few (Llama's H = 4096: 256 blocks, about 2 an SM) and each must keep more in
// flight.
using WideGateUpRing = Ring<3, 256, 8>;
using WideDownRing = Ring<6, 256, 8>;
// At M <= 8: gate and up in 4-warp blocks of 128 a stage (30 KB, 7 blocks an SM: Llama's 896
// blocks in one wave, no tail), down with 8 stages, 7 of them in flight before h is ready. Each
// alone is no faster than the wide ring; together they overlap the two kernels' ends.
using NarrowGateUpRing = Ring<3, 128, 4>;
using NarrowDownRing = Ring<8, 256, 8>;

// Unit u of row r sits at unit u ^ (r % 8): the 8 rows one ldmatrix reads fall in 8 bank groups.
template <int kStageK>
__device__ __forceinline__ int swizzled(int r, int u) {
    return r * kStageK + ((u ^ (r & 7)) << 3);
}

// The ring: kMatrices x 16 weight rows and 8 kTiles activation rows, kStageK each, a stage.
template <class R, int kMatrices, int kTiles>
struct StagedSmem {
    static constexpr int kActRows = 8 * kTiles;
    struct Stage {
        bf16 weights[kMatrices][kRows * R::kStageK];
        bf16 act[kActRows * R::kStageK];
    };
    Stage ring[R::kStages];
};

// kTiles: 8-column tiles of activation rows (1 for M <= 8, 2 for M <= 16). kPaired: gate and up
// with SiLU*up into h; otherwise the plain product into out. K is a multiple of 8.
template <class R, int kTiles, bool kPaired>
__global__ void __launch_bounds__(R::kWarps * 32)
    stagedGemv(const bf16* __restrict__ act, const bf16* __restrict__ weight,
               const bf16* __restrict__ second, bf16* __restrict__ result, int rows, int weightRows,
               int K) {
    constexpr int kMatrices = kPaired ? 2 : 1;
    using Smem = StagedSmem<R, kMatrices, kTiles>;
    constexpr int kStages = R::kStages, kStageK = R::kStageK, kWarps = R::kWarps;
    constexpr int kThreads = kWarps * 32;
    constexpr int kUnits = kStageK / 8;                   // 16-byte units of a stage row
    constexpr int kStepsPerWarp = kStageK / 16 / kWarps;  // k16 steps each warp multiplies a stage
    static_assert(kStepsPerWarp >= 1 && kStageK % (16 * kWarps) == 0, "steps split over warps");
    static_assert(kRows * kUnits % kThreads == 0, "a stage must split evenly over the threads");
    extern __shared__ __align__(128) unsigned char smemBytes[];
    auto& smem = *reinterpret_cast<Smem*>(smemBytes);
    // The warps' partial sums reuse the ring once the last stage has been multiplied.
    using Partial = float[kWarps][kMatrices][kRows][8 * kTiles];
    static_assert(sizeof(Partial) <= sizeof(Smem), "the partial sums must fit in the ring");
    auto& partial = *reinterpret_cast<Partial*>(smemBytes);
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int row0 = static_cast<int>(blockIdx.x) * kRows;
    const bf16* matrices[2] = {weight, kPaired ? second : weight};
    const int stages = (K + kStageK - 1) / kStageK;

    // Thread t copies unit t % kUnits of row t / kUnits (then that row + kThreads / kUnits): a
    // warp, 512 contiguous bytes of a row, or of two.
    const auto copyWeights = [&](int s) {
        if (s >= stages) return;
#pragma unroll
        for (int i = 0; i < kRows * kUnits / kThreads; ++i) {
            const int idx = static_cast<int>(threadIdx.x) + i * kThreads;
            const int r = idx / kUnits, u = idx % kUnits, k = s * kStageK + u * 8;
            const bool valid = row0 + r < weightRows && k < K;
#pragma unroll
            for (int m = 0; m < kMatrices; ++m)
                copyAsync16(
                    &smem.ring[s % kStages].weights[m][swizzled<kStageK>(r, u)],
                    valid ? matrices[m] + static_cast<std::int64_t>(row0 + r) * K + k : matrices[m],
                    valid);
        }
    };
    // Rows of x (or h) past M are zero-filled, so their products are zero.
    const auto copyActivations = [&](int s) {
        if (s >= stages) return;
#pragma unroll
        for (int idx = static_cast<int>(threadIdx.x); idx < Smem::kActRows * kUnits;
             idx += kThreads) {
            const int r = idx / kUnits, u = idx % kUnits, k = s * kStageK + u * 8;
            const bool valid = r < rows && k < K;
            copyAsync16(&smem.ring[s % kStages].act[swizzled<kStageK>(r, u)],
                        valid ? act + static_cast<std::int64_t>(r) * K + k : act, valid);
        }
    };
    // The weights do not depend on the previous kernel: start streaming them before waiting.
    // Groups: the prologue's weights, then one group per stage's activations (then per stage).
    for (int s = 0; s < kStages - 1; ++s) copyWeights(s);
    commitAsyncCopies();
    allowNextGrid();
    waitForPreviousGrid();
    for (int s = 0; s < kStages - 1; ++s) {
        copyActivations(s);
        commitAsyncCopies();
    }

    float c[kMatrices][kTiles][4] = {};
    for (int s = 0; s < stages; ++s) {
        waitAsyncCopies<kStages - 2>();
        __syncthreads();  // stage s is visible to all; stage s - 1's slot is free again
        copyWeights(s + kStages - 1);
        copyActivations(s + kStages - 1);
        commitAsyncCopies();
        const auto& st = smem.ring[s % kStages];
#pragma unroll
        for (int j = 0; j < kStepsPerWarp; ++j) {
            const int step = warp * kStepsPerWarp + j;  // k16 step within the stage
            // B fragments: b[t][0] at k 2 (lane % 4) (+1), b[t][1] at that + 8, x row lane / 4.
            unsigned b[kTiles][2];
            const int bRow = lane % 8 + lane / 16 * 8, bUnit = step * 2 + (lane / 8) % 2;
            if constexpr (kTiles == 1) {
                loadMatrices2(b[0], &st.act[swizzled<kStageK>(bRow, bUnit)]);
            } else {
                unsigned four[4];
                loadMatrices(four, &st.act[swizzled<kStageK>(bRow, bUnit)]);
                b[0][0] = four[0], b[0][1] = four[1], b[kTiles - 1][0] = four[2],
                b[kTiles - 1][1] = four[3];
            }
#pragma unroll
            for (int m = 0; m < kMatrices; ++m) {
                unsigned a[4];
                loadMatrices(a, &st.weights[m][swizzled<kStageK>(lane % 8 + (lane / 8) % 2 * 8,
                                                                 step * 2 + lane / 16)]);
#pragma unroll
                for (int t = 0; t < kTiles; ++t) mmaBf16(c[m][t], a, b[t][0], b[t][1]);
            }
        }
    }
    waitAsyncCopies<0>();
    __syncthreads();  // every warp is done with the ring
    // C fragment: c[0], c[1] at (weight row lane / 4, x rows 2 (lane % 4), +1); c[2], c[3] at
    // weight row lane / 4 + 8. The warps' partial sums are added in a fixed order (deterministic).
    const int group = lane / 4, quad = lane % 4;
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
    for (int e = threadIdx.x; e < kRows * rows; e += kThreads) {
        const int r = e % kRows, col = e / kRows;
        if (row0 + r >= weightRows) continue;
        float sums[kMatrices] = {};
#pragma unroll
        for (int w = 0; w < kWarps; ++w)
#pragma unroll
            for (int m = 0; m < kMatrices; ++m) sums[m] += partial[w][m][r][col];
        const float value = kPaired ? silu(sums[0]) * sums[kMatrices - 1] : sums[0];
        result[static_cast<std::int64_t>(col) * weightRows + row0 + r] = __float2bfloat16_rn(value);
    }
}

template <class R, int kTiles, bool kPaired>
Status launchStaged(const MlpShape& shape, bool overlap, const bf16* act, const bf16* weight,
                    const bf16* second, bf16* result, std::int64_t weightRows, std::int64_t K,
                    const char* name, cudaStream_t stream) {
    constexpr int kSmem = static_cast<int>(sizeof(StagedSmem<R, (kPaired ? 2 : 1), kTiles>));
    auto* kernel = stagedGemv<R, kTiles, kPaired>;
    if (Status s = allowDynamicSharedMemory(kernel, kSmem, "decode GEMV"); !s) return s;
    const dim3 grid(static_cast<unsigned>(ceilDiv(weightRows, kRows)));
    return launchMaybeOverlapped(kernel, grid, dim3(R::kWarps * 32), kSmem, stream, overlap, name,
                                 act, weight, second, result, static_cast<int>(shape.M),
                                 static_cast<int>(weightRows), static_cast<int>(K));
}

template <bool kPaired>
Status launch(const MlpShape& shape, const DecodeConfig& config, const void* act,
              const void* weight, const void* second, void* result, std::int64_t weightRows,
              std::int64_t K, const char* name, cudaStream_t stream) {
    if (weightRows * K > INT32_MAX || shape.M > kDecodeMaxRows)
        return {ErrorCode::InvalidArgument, "the tensor-core GEMV takes at most 2^31 weights"};
    if (config.narrowRings && shape.M > 8)
        return {ErrorCode::InvalidArgument, "the decode GEMV's narrow rings take at most 8 rows"};
    using WideRing = std::conditional_t<kPaired, WideGateUpRing, WideDownRing>;
    using NarrowRing = std::conditional_t<kPaired, NarrowGateUpRing, NarrowDownRing>;
    const auto* a = static_cast<const bf16*>(act);
    const auto* w = static_cast<const bf16*>(weight);
    const auto* w2 = static_cast<const bf16*>(second);
    auto* r = static_cast<bf16*>(result);
    const bool overlap = config.overlap;
    if (config.narrowRings)
        return launchStaged<NarrowRing, 1, kPaired>(shape, overlap, a, w, w2, r, weightRows, K,
                                                    name, stream);
    if (shape.M <= 8)
        return launchStaged<WideRing, 1, kPaired>(shape, overlap, a, w, w2, r, weightRows, K, name,
                                                  stream);
    return launchStaged<WideRing, 2, kPaired>(shape, overlap, a, w, w2, r, weightRows, K, name,
                                              stream);
}

}  // namespace

Status launchTensorGemvGateUpSilu(const MlpShape& shape, const DecodeConfig& config, const void* x,
                                  const void* gate, const void* up, void* h, cudaStream_t stream) {
    return launch<true>(shape, config, x, gate, up, h, shape.I, shape.H, "gemv_gate_up_silu launch",
                        stream);
}

Status launchTensorGemvDown(const MlpShape& shape, const DecodeConfig& config, const void* h,
                            const void* down, void* out, cudaStream_t stream) {
    return launch<false>(shape, config, h, down, nullptr, out, shape.H, shape.I, "gemv_down launch",
                         stream);
}

}  // namespace fusescope::mlp
