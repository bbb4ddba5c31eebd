// The production variant's bfloat16 decode kernels on the tensor cores. The weights are streamed
// as the CUDA-core GEMV streams them (each warp copies 512 contiguous bytes of one row per
// instruction, which keeps DRAM pages open), but through cp.async into a multi-stage
// shared-memory ring rather than registers, x's (or h's) slice of each stage with them; ldmatrix
// then hands 16 weight rows x 16 k to mma.m16n8k16 as A, with x's at most 16 rows as B. So the
// multiply-adds per weight no longer grow with M, every weight byte is read once whatever M is, and
// the first stages are in flight before the previous kernel has finished (programmatic dependent
// launch).
#include "pipelines/mlp/mlp_async_copy.cuh"
#include "pipelines/mlp/mlp_device.cuh"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_tensor_gemv.h"
#include "platform/kernel_shared_memory.h"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kWarps = 8;
constexpr int kThreads = kWarps * 32;
constexpr int kRows = production::kTensorRowsPerBlock;  // 16 weight rows a block
constexpr int kStageK = 256;                            // elements of K a stage holds
constexpr int kUnits = kStageK / 8;                     // 16-byte units of a stage row
constexpr int kStepsPerWarp = kStageK / 16 / kWarps;    // k16 steps each warp multiplies a stage
static_assert(kRows * kUnits % kThreads == 0, "a stage must split evenly over the threads");

// Unit u of row r sits at unit u ^ (r % 8): the 8 rows one ldmatrix reads fall in 8 bank groups.
__device__ __forceinline__ int swizzled(int r, int u) {
    return r * kStageK + ((u ^ (r & 7)) << 3);
}

// One stage of the ring: kMatrices x 16 weight rows and 8 kTiles activation rows, kStageK each.
// Gate and up: 3 stages (60 or 72 KB, 3 blocks an SM). Down alone: 6 stages, since its 16-row
// blocks are few (Llama's H = 4096: 256 blocks, about 2 an SM) and each must keep more in flight.
template <int kMatrices, int kTiles>
struct StagedSmem {
    static constexpr int kStages = kMatrices == 2 ? 3 : 6;
    static constexpr int kActRows = 8 * kTiles;
    struct Stage {
        bf16 weights[kMatrices][kRows * kStageK];
        bf16 act[kActRows * kStageK];
    };
    Stage ring[kStages];
};

// kTiles: 8-column tiles of activation rows (1 for M <= 8, 2 for M <= 16). kPaired: gate and up
// with SiLU*up into h; otherwise the plain product into out. K is a multiple of 8.
template <int kTiles, bool kPaired>
__global__ void __launch_bounds__(kThreads)
    stagedGemv(const bf16* __restrict__ act, const bf16* __restrict__ weight,
               const bf16* __restrict__ second, bf16* __restrict__ result, int rows, int weightRows,
               int K) {
    constexpr int kMatrices = kPaired ? 2 : 1;
    using Smem = StagedSmem<kMatrices, kTiles>;
    constexpr int kStages = Smem::kStages;
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

    // Thread t copies unit t % 32 of rows t / 32 and t / 32 + 8: a warp, 512 bytes of a row.
    const auto copyWeights = [&](int s) {
        if (s >= stages) return;
        const int k = s * kStageK + lane * 8;
#pragma unroll
        for (int m = 0; m < kMatrices; ++m)
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int r = warp + 8 * half;
                const bool valid = row0 + r < weightRows && k < K;
                copyAsync16(
                    &smem.ring[s % kStages].weights[m][swizzled(r, lane)],
                    valid ? matrices[m] + static_cast<std::int64_t>(row0 + r) * K + k : matrices[m],
                    valid);
            }
    };
    // Rows of x (or h) past M are zero-filled, so their products are zero.
    const auto copyActivations = [&](int s) {
        if (s >= stages) return;
        const int k = s * kStageK + lane * 8;
#pragma unroll
        for (int half = 0; half < kTiles; ++half) {
            const int r = warp + 8 * half;
            const bool valid = r < rows && k < K;
            copyAsync16(&smem.ring[s % kStages].act[swizzled(r, lane)],
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
                loadMatrices2(b[0], &st.act[swizzled(bRow, bUnit)]);
            } else {
                unsigned four[4];
                loadMatrices(four, &st.act[swizzled(bRow, bUnit)]);
                b[0][0] = four[0], b[0][1] = four[1], b[kTiles - 1][0] = four[2],
                b[kTiles - 1][1] = four[3];
            }
#pragma unroll
            for (int m = 0; m < kMatrices; ++m) {
                unsigned a[4];
                loadMatrices(
                    a,
                    &st.weights[m][swizzled(lane % 8 + (lane / 8) % 2 * 8, step * 2 + lane / 16)]);
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

template <int kTiles, bool kPaired>
Status launchStaged(const MlpShape& shape, bool overlap, const bf16* act, const bf16* weight,
                    const bf16* second, bf16* result, std::int64_t weightRows, std::int64_t K,
                    const char* name, cudaStream_t stream) {
    constexpr int kSmem = static_cast<int>(sizeof(StagedSmem<(kPaired ? 2 : 1), kTiles>));
    auto* kernel = stagedGemv<kTiles, kPaired>;
    if (Status s = allowDynamicSharedMemory(kernel, kSmem, "decode GEMV"); !s) return s;
    const dim3 grid(static_cast<unsigned>(ceilDiv(weightRows, kRows)));
    return launchMaybeOverlapped(kernel, grid, dim3(kThreads), kSmem, stream, overlap, name, act,
                                 weight, second, result, static_cast<int>(shape.M),
                                 static_cast<int>(weightRows), static_cast<int>(K));
}

template <bool kPaired>
Status launch(const MlpShape& shape, bool overlap, const void* act, const void* weight,
              const void* second, void* result, std::int64_t weightRows, std::int64_t K,
              const char* name, cudaStream_t stream) {
    if (weightRows * K > INT32_MAX || shape.M > kDecodeMaxRows)
        return {ErrorCode::InvalidArgument, "the tensor-core GEMV takes at most 2^31 weights"};
    const auto* a = static_cast<const bf16*>(act);
    const auto* w = static_cast<const bf16*>(weight);
    const auto* w2 = static_cast<const bf16*>(second);
    auto* r = static_cast<bf16*>(result);
    if (shape.M <= 8)
        return launchStaged<1, kPaired>(shape, overlap, a, w, w2, r, weightRows, K, name, stream);
    return launchStaged<2, kPaired>(shape, overlap, a, w, w2, r, weightRows, K, name, stream);
}

}  // namespace

Status launchTensorGemvGateUpSilu(const MlpShape& shape, const DecodeConfig& config, const void* x,
                                  const void* gate, const void* up, void* h, cudaStream_t stream) {
    return launch<true>(shape, config.overlap, x, gate, up, h, shape.I, shape.H,
                        "gemv_gate_up_silu launch", stream);
}

Status launchTensorGemvDown(const MlpShape& shape, const DecodeConfig& config, const void* h,
                            const void* down, void* out, cudaStream_t stream) {
    return launch<false>(shape, config.overlap, h, down, nullptr, out, shape.H, shape.I,
                         "gemv_down launch", stream);
}

}  // namespace fusescope::mlp
