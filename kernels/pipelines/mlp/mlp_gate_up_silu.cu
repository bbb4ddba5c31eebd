// The production variant's prefill kernel: gate and up as one GEMM whose epilogue applies
// SiLU*up, so g and u never leave registers and h is written once. Blocks walk the M tiles
// fastest, so the blocks that share one tile of gate and up run together and the L2 serves the
// weights' re-reads. bfloat16 runs on the tensor cores: a 128 x 64 tile of h is a 128 x 128
// GEMM tile (64 gate rows and the 64 up rows of the same columns), staged by cp.async in a
// 3-deep ring of XOR-swizzled 128-byte rows, multiplied with ldmatrix and mma.m16n8k16 by 8
// warps (2 along M x 4 along I, each 64 rows x 16 columns of both g and u); whole tiles are copied
// without bounds checks. float32 runs on the CUDA cores (no TF32).
#include <algorithm>

#include "pipelines/mlp/mlp_async_copy.cuh"
#include "pipelines/mlp/mlp_launch.h"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_tile_mma.cuh"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kThreads = 256;
template <typename T>
inline constexpr int kStepH = std::is_same_v<T, float> ? 16 : 32;

template <typename T>
struct GateUpKernel {
    using Loop = GateUpLoop<T, production::kTileM, production::kTileI, kStepH<T>, kThreads>;
    static constexpr int kStagingLd = production::kTileI + 4;
    static constexpr int kStagingBytes = production::kTileM * kStagingLd * 4;
    // The staging tile reuses the loop's shared memory once the loop is done.
    static constexpr int kSmemBytes =
        Loop::kSmemBytes > kStagingBytes ? Loop::kSmemBytes : kStagingBytes;
};

template <typename T>
__global__ void __launch_bounds__(kThreads)
    gemmGateUpSilu(const T* __restrict__ x, const T* __restrict__ gate, const T* __restrict__ up,
                   T* __restrict__ h, MlpShape shape, bool packed) {
    using K = GateUpKernel<T>;
    constexpr int BM = production::kTileM, BI = production::kTileI;
    extern __shared__ __align__(128) unsigned char smem[];
    const std::int64_t m0 = static_cast<std::int64_t>(blockIdx.x) * BM;
    const std::int64_t i0 = static_cast<std::int64_t>(blockIdx.y) * BI;
    typename K::Loop::Accumulator g, u;
    K::Loop::run(g, u, x, gate, up, shape, m0, i0, smem, packed);
    float* staging = reinterpret_cast<float*>(smem);
    g.store(staging, K::kStagingLd);
    __syncthreads();
    storeTile<T, BM, BI, kThreads>(h, shape.I, staging, K::kStagingLd, m0, i0, shape.M, shape.I);
}

namespace mma {

constexpr int BM = production::kTileM, BI = production::kTileI, BK = 64;
constexpr int kStages = 3;
constexpr int kXTile = BM * BK, kWTile = BI * BK;  // elements
constexpr int kStage = kXTile + 2 * kWTile;
constexpr int kSmemBytes = kStages * kStage * 2;  // 96 KB: two blocks an SM
static_assert(BM == 128 && BI == 64, "the warp layout below is written for 128 x 64 tiles");

__device__ __forceinline__ int at(int r, int c) {
    return r * BK + ((((c >> 3) ^ r) & 7) << 3) + (c & 7);
}

// kRows x 64 tile of src (rows of length ld) from (row0, col0), zero outside the limits. Thread
// t copies unit t % 8 of rows t / 8 + 32 j.
template <int kRows>
__device__ __forceinline__ void copyTile(bf16* tile, const bf16* __restrict__ src, int ld, int row0,
                                         int col0, int rowLimit, int colLimit, bool aligned) {
    const int r0 = static_cast<int>(threadIdx.x) / 8, c0 = static_cast<int>(threadIdx.x) % 8 * 8;
    const int col = col0 + c0;
#pragma unroll
    for (int j = 0; j < kRows / 32; ++j) {
        const int r = r0 + 32 * j;
        const bool rowValid = row0 + r < rowLimit;
        const bf16* p = src + static_cast<std::int64_t>(row0 + r) * ld + col;
        bf16* dst = tile + at(r, c0);
        if (aligned) {
            const bool valid = rowValid && col < colLimit;
            copyAsync16(dst, valid ? p : src, valid);
        } else {
#pragma unroll
            for (int e = 0; e < 8; ++e)
                dst[e] = rowValid && col + e < colLimit ? p[e] : __float2bfloat16_rn(0.0f);
        }
    }
}

// kFull: M, H and I are whole tiles (128, 64, 64), so the copies carry no bounds checks. Every
// shared address is a per-thread register plus a constant: the copy slot (unit t % 8 of rows
// t / 8 + 32 j, which share one swizzle) and each k step's ldmatrix rows.
template <bool kFull>
__global__ void __launch_bounds__(kThreads, 2)
    gemmGateUpSiluMma(const bf16* __restrict__ x, const bf16* __restrict__ gate,
                      const bf16* __restrict__ up, bf16* __restrict__ h, int M, int H, int I,
                      bool aligned) {
    constexpr int kRowBytes = BK * 2, kGroupBytes = 32 * kRowBytes;  // a copy pass: 32 rows
    constexpr int kGateAt = kXTile * 2, kUpAt = (kXTile + kWTile) * 2, kStageBytes = kStage * 2;
    extern __shared__ __align__(128) unsigned char smemBytes[];
    bf16* smem = reinterpret_cast<bf16*>(smemBytes);
    const unsigned smemBase = sharedAddress(smemBytes);
    const int m0 = static_cast<int>(blockIdx.x) * BM, i0 = static_cast<int>(blockIdx.y) * BI;
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int wm = warp / 4, wn = warp % 4;
    const int steps = (H + BK - 1) / BK;
    const int unit = static_cast<int>(threadIdx.x) % 8, r0 = static_cast<int>(threadIdx.x) / 8;
    const unsigned copyAt = static_cast<unsigned>(at(r0, unit * 8) * 2);
    const std::int64_t rows32 = 32ll * H;
    const bf16* xRow = x + static_cast<std::int64_t>(m0 + r0) * H + unit * 8;
    const std::int64_t weightRow = static_cast<std::int64_t>(i0 + r0) * H + unit * 8;
    unsigned offA[BK / 16], offB[BK / 16];
#pragma unroll
    for (int k = 0; k < BK / 16; ++k) {
        offA[k] = static_cast<unsigned>(
            at(wm * 64 + lane % 8 + (lane / 8) % 2 * 8, k * 16 + lane / 16 * 8) * 2);
        offB[k] = static_cast<unsigned>(
            at(wn * 16 + lane % 8 + lane / 16 * 8, k * 16 + (lane / 8) % 2 * 8) * 2);
    }
    int loadStep = 0, loadSlot = 0;
    const auto stageNext = [&] {
        if (loadStep < steps) {
            const int k0 = loadStep * BK;
            if constexpr (kFull) {
                const unsigned a =
                    smemBase + static_cast<unsigned>(loadSlot * kStageBytes) + copyAt;
                const bf16* xs = xRow + k0;
                copyAsync16At<0>(a, xs);
                copyAsync16At<kGroupBytes>(a, xs + rows32);
                copyAsync16At<2 * kGroupBytes>(a, xs + 2 * rows32);
                copyAsync16At<3 * kGroupBytes>(a, xs + 3 * rows32);
                const bf16* gs = gate + weightRow + k0;
                const bf16* us = up + weightRow + k0;
                copyAsync16At<kGateAt>(a, gs);
                copyAsync16At<kGateAt + kGroupBytes>(a, gs + rows32);
                copyAsync16At<kUpAt>(a, us);
                copyAsync16At<kUpAt + kGroupBytes>(a, us + rows32);
            } else {
                bf16* xs = smem + loadSlot * kStage;
                copyTile<BM>(xs, x, H, m0, k0, M, H, aligned);
                copyTile<BI>(xs + kXTile, gate, H, i0, k0, I, H, aligned);
                copyTile<BI>(xs + kXTile + kWTile, up, H, i0, k0, I, H, aligned);
            }
            loadSlot = loadSlot + 1 == kStages ? 0 : loadSlot + 1;
        }
        ++loadStep;
        commitAsyncCopies();
    };
    float acc[2][4][2][4] = {};  // [g or u][16-row tile][8-column tile][fragment]
    for (int s = 0; s < kStages - 1; ++s) stageNext();
    int slot = 0;
    for (int s = 0; s < steps; ++s) {
        waitAsyncCopies<kStages - 2>();
        __syncthreads();  // step s is visible to all; step s - 1's stage is free again
        // Copies first: with them after the step's ldmatrix loads, M=4096 took 3251.8 us against
        // 3129.4 (H200, production variant).
        stageNext();
        const unsigned stage = smemBase + static_cast<unsigned>(slot * kStageBytes);
        slot = slot + 1 == kStages ? 0 : slot + 1;
#pragma unroll
        for (int k = 0; k < BK / 16; ++k) {
            const unsigned a = stage + offA[k], b = stage + offB[k];
            unsigned af[4][4], bg[4], bu[4];
            loadMatricesAt<0>(af[0], a);
            loadMatricesAt<16 * kRowBytes>(af[1], a);
            loadMatricesAt<32 * kRowBytes>(af[2], a);
            loadMatricesAt<48 * kRowBytes>(af[3], a);
            loadMatricesAt<kGateAt>(bg, b);
            loadMatricesAt<kUpAt>(bu, b);
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 2; ++j) {
                    mmaBf16(acc[0][i][j], af[i], bg[2 * j], bg[2 * j + 1]);
                    mmaBf16(acc[1][i][j], af[i], bu[2 * j], bu[2 * j + 1]);
                }
        }
    }
    waitAsyncCopies<0>();
    // C fragment: elements 0, 1 at (row lane / 4, columns 2 (lane % 4), +1); 2, 3 at row + 8.
    const bool pairs = I % 2 == 0;
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int row = m0 + wm * 64 + i * 16 + lane / 4 + half * 8;
                const int col = i0 + wn * 16 + j * 8 + lane % 4 * 2;
                if (row >= M || col >= I) continue;
                const float v0 = silu(acc[0][i][j][2 * half]) * acc[1][i][j][2 * half];
                const float v1 = silu(acc[0][i][j][2 * half + 1]) * acc[1][i][j][2 * half + 1];
                bf16* dst = h + static_cast<std::int64_t>(row) * I + col;
                if (pairs) {
                    *reinterpret_cast<__nv_bfloat162*>(dst) = __floats2bfloat162_rn(v0, v1);
                } else {
                    dst[0] = __float2bfloat16_rn(v0);
                    if (col + 1 < I) dst[1] = __float2bfloat16_rn(v1);
                }
            }
}

}  // namespace mma

// Registers, spills and occupancy of a precompiled gate_up kernel at its launch's shared memory
// (set as its limit first, as a launch does).
template <typename Kernel>
KernelResources resourcesOf(Kernel kernel, int smem, const MlpShape& shape) {
    cudaFuncAttributes attributes{};
    int blocks = 0, device = 0, threadsPerSm = 0;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) !=
            cudaSuccess ||
        cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreads, smem) !=
            cudaSuccess ||
        cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, device) !=
            cudaSuccess) {
        (void)cudaGetLastError();
        return {};
    }
    KernelResources r;
    r.known = true;
    r.registersPerThread = attributes.numRegs;
    r.localBytesPerThread = static_cast<int>(attributes.localSizeBytes);
    r.staticSharedBytes = static_cast<int>(attributes.sharedSizeBytes);
    r.dynamicSharedBytes = smem;
    r.sharedBytesPerBlock = r.staticSharedBytes + smem;
    r.blockSize = kThreads;
    r.gridSize = static_cast<int>(ceilDiv(shape.M, production::kTileM) *
                                  ceilDiv(shape.I, production::kTileI));
    r.blocksPerMultiprocessor = blocks;
    r.theoreticalOccupancy =
        static_cast<double>(blocks * kThreads) / static_cast<double>(std::max(1, threadsPerSm));
    r.origin = "precompiled";
    return r;
}

}  // namespace

KernelResources gateUpSiluResources(MlpDtype dtype, const MlpShape& shape) {
    if (dtype == MlpDtype::Float32)
        return resourcesOf(gemmGateUpSilu<float>, GateUpKernel<float>::kSmemBytes, shape);
    const bool full = shape.M % mma::BM == 0 && shape.H % mma::BK == 0 && shape.I % mma::BI == 0;
    return full ? resourcesOf(mma::gemmGateUpSiluMma<true>, mma::kSmemBytes, shape)
                : resourcesOf(mma::gemmGateUpSiluMma<false>, mma::kSmemBytes, shape);
}

Status launchGateUpSilu(MlpDtype dtype, const MlpShape& shape, const void* x, const void* gate,
                        const void* up, void* h, cudaStream_t stream) {
    const bool packed = packAligned(dtype, shape.H);
    const dim3 grid(static_cast<unsigned>(ceilDiv(shape.M, production::kTileM)),
                    static_cast<unsigned>(ceilDiv(shape.I, production::kTileI)));
    if (dtype == MlpDtype::Bfloat16) {
        const bool full =
            shape.M % mma::BM == 0 && shape.H % mma::BK == 0 && shape.I % mma::BI == 0;
        auto* kernel = full ? mma::gemmGateUpSiluMma<true> : mma::gemmGateUpSiluMma<false>;
        if (Status s =
                cudaStatus(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                mma::kSmemBytes),
                           "cudaFuncSetAttribute (gate_up kernel shared memory)");
            !s)
            return s;
        kernel<<<grid, kThreads, mma::kSmemBytes, stream>>>(
            static_cast<const bf16*>(x), static_cast<const bf16*>(gate),
            static_cast<const bf16*>(up), static_cast<bf16*>(h), static_cast<int>(shape.M),
            static_cast<int>(shape.H), static_cast<int>(shape.I), packed);
        return launchStatus("gemm_gate_up_silu launch");
    }
    constexpr int kSmem = GateUpKernel<float>::kSmemBytes;
    auto* kernel = gemmGateUpSilu<float>;
    if (Status s = cudaStatus(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem),
            "cudaFuncSetAttribute (gate_up kernel shared memory)");
        !s)
        return s;
    kernel<<<grid, kThreads, kSmem, stream>>>(
        static_cast<const float*>(x), static_cast<const float*>(gate),
        static_cast<const float*>(up), static_cast<float*>(h), shape, packed);
    return launchStatus("gemm_gate_up_silu launch");
}

}  // namespace fusescope::mlp
