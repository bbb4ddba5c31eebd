#pragma once
// A block's tile of C += A * B^T with A (BM x BK) and B (BN x BK) staged in shared memory, both
// K-contiguous as x, the weights and h are stored, on CUDA cores with a register micro-tile per
// thread (no TF32); the tile loader and the gate/up main loop of the production variant's float32
// prefill kernel.
#include "pipelines/mlp/mlp_device.cuh"

namespace fusescope::mlp::device {

// Shared-memory row padding in elements: bfloat16 rows stay multiples of 16 bytes; float32 rows
// get one word so that threads reading down a column hit different banks.
template <typename T>
inline constexpr int kSmemPad = std::is_same_v<T, float> ? 1 : 8;

template <typename T, int kCols>
inline constexpr int kSmemLd = kCols + kSmemPad<T>;

// Bytes of a [rows][cols + pad] tile, rounded up so that every carved region stays aligned.
template <typename T, int kRows, int kCols>
inline constexpr int kTileBytes = (kRows * kSmemLd<T, kCols> * int(sizeof(T)) + 127) / 128 * 128;

// tile[r][c] = src[row0 + r][col0 + c], zero beyond rowLimit x colLimit. `packed`: the source's
// row length and col0 are multiples of the pack, so whole 16-byte packs can be read.
template <typename T, int kRows, int kCols, int kThreads>
__device__ __forceinline__ void loadTile(T* tile, const T* __restrict__ src, std::int64_t ld,
                                         std::int64_t row0, std::int64_t col0,
                                         std::int64_t rowLimit, std::int64_t colLimit,
                                         bool packed) {
    constexpr int kLd = kSmemLd<T, kCols>;
    constexpr int kP = kPack<T>;
    static_assert(kCols % kP == 0, "tile width must be a whole number of 16-byte packs");
    constexpr int kPacksPerRow = kCols / kP;
    for (int p = threadIdx.x; p < kRows * kPacksPerRow; p += kThreads) {
        const int r = p / kPacksPerRow;
        const int c = p % kPacksPerRow * kP;
        const std::int64_t gr = row0 + r, gc = col0 + c;
        Pack<T> pack;
        if (packed && gr < rowLimit && gc + kP <= colLimit) {
            pack = loadPack(src + gr * ld + gc);
        } else {
#pragma unroll
            for (int e = 0; e < kP; ++e)
                pack.v[e] = (gr < rowLimit && gc + e < colLimit) ? src[gr * ld + gc + e]
                                                                 : fromFloat<T>(0.0f);
        }
        if constexpr (kSmemPad<T> % kP == 0) {
            storePack(tile + r * kLd + c, pack);
        } else {
#pragma unroll
            for (int e = 0; e < kP; ++e) tile[r * kLd + c + e] = pack.v[e];
        }
    }
}

// dst[row0 + r][col0 + c] = staging[r][c] in T, for the part of the BM x BN tile inside
// rowLimit x colLimit. Call after a barrier that follows the staging stores.
template <typename T, int BM, int BN, int kThreads>
__device__ __forceinline__ void storeTile(T* __restrict__ dst, std::int64_t ld,
                                          const float* staging, int stagingLd, std::int64_t row0,
                                          std::int64_t col0, std::int64_t rowLimit,
                                          std::int64_t colLimit) {
    for (int e = threadIdx.x; e < BM * BN; e += kThreads) {
        const std::int64_t row = row0 + e / BN, col = col0 + e % BN;
        if (row < rowLimit && col < colLimit)
            dst[row * ld + col] = fromFloat<T>(staging[e / BN * stagingLd + e % BN]);
    }
}

template <typename T, int BM, int BN, int kThreads>
struct TileAccumulator;

template <int BM, int BN, int kThreads>
struct TileAccumulator<float, BM, BN, kThreads> {
    static constexpr int kThreadsN = 16;
    static constexpr int kThreadsM = kThreads / kThreadsN;
    static constexpr int kRows = BM / kThreadsM;
    static constexpr int kCols = BN / kThreadsN;
    static_assert(kRows * kThreadsM == BM && kCols * kThreadsN == BN,
                  "tile must split evenly over the threads");
    // Thread (ty, tx) owns rows ty + i * kThreadsM and columns tx + j * kThreadsN.
    float v[kRows][kCols];

    __device__ __forceinline__ void zero() {
#pragma unroll
        for (int i = 0; i < kRows; ++i)
#pragma unroll
            for (int j = 0; j < kCols; ++j) v[i][j] = 0.0f;
    }

    template <int BK>
    __device__ __forceinline__ void mma(const float* a, int lda, const float* b, int ldb) {
        const int tx = static_cast<int>(threadIdx.x) % kThreadsN;
        const int ty = static_cast<int>(threadIdx.x) / kThreadsN;
#pragma unroll 4
        for (int k = 0; k < BK; ++k) {
            float av[kRows], bv[kCols];
#pragma unroll
            for (int i = 0; i < kRows; ++i) av[i] = a[(ty + i * kThreadsM) * lda + k];
#pragma unroll
            for (int j = 0; j < kCols; ++j) bv[j] = b[(tx + j * kThreadsN) * ldb + k];
#pragma unroll
            for (int i = 0; i < kRows; ++i)
#pragma unroll
                for (int j = 0; j < kCols; ++j) v[i][j] = fmaf(av[i], bv[j], v[i][j]);
        }
    }

    template <typename F>
    __device__ __forceinline__ void combine(const TileAccumulator& other, F f) {
#pragma unroll
        for (int i = 0; i < kRows; ++i)
#pragma unroll
            for (int j = 0; j < kCols; ++j) v[i][j] = f(v[i][j], other.v[i][j]);
    }

    __device__ __forceinline__ void store(float* staging, int ld) const {
        const int tx = static_cast<int>(threadIdx.x) % kThreadsN;
        const int ty = static_cast<int>(threadIdx.x) / kThreadsN;
#pragma unroll
        for (int i = 0; i < kRows; ++i)
#pragma unroll
            for (int j = 0; j < kCols; ++j)
                staging[(ty + i * kThreadsM) * ld + tx + j * kThreadsN] = v[i][j];
    }
};

// The gate/up main loop both fused kernels share: over all of H in steps of BK, stage x's rows
// [m0, m0+BM) and gate's and up's rows [i0, i0+BI) in shared memory and accumulate g and u.
template <typename T, int BM, int BI, int BK, int kThreads>
struct GateUpLoop {
    using Accumulator = TileAccumulator<T, BM, BI, kThreads>;
    static constexpr int kSmemBytes = kTileBytes<T, BM, BK> + 2 * kTileBytes<T, BI, BK>;

    __device__ __forceinline__ static void run(Accumulator& g, Accumulator& u,
                                               const T* __restrict__ x, const T* __restrict__ gate,
                                               const T* __restrict__ up, const MlpShape& shape,
                                               std::int64_t m0, std::int64_t i0,
                                               unsigned char* smem, bool packed) {
        T* xs = reinterpret_cast<T*>(smem);
        T* gs = reinterpret_cast<T*>(smem + kTileBytes<T, BM, BK>);
        T* us = reinterpret_cast<T*>(smem + kTileBytes<T, BM, BK> + kTileBytes<T, BI, BK>);
        constexpr int kLd = kSmemLd<T, BK>;
        g.zero();
        u.zero();
        for (std::int64_t k0 = 0; k0 < shape.H; k0 += BK) {
            loadTile<T, BM, BK, kThreads>(xs, x, shape.H, m0, k0, shape.M, shape.H, packed);
            loadTile<T, BI, BK, kThreads>(gs, gate, shape.H, i0, k0, shape.I, shape.H, packed);
            loadTile<T, BI, BK, kThreads>(us, up, shape.H, i0, k0, shape.I, shape.H, packed);
            __syncthreads();
            g.template mma<BK>(xs, kLd, gs, kLd);
            u.template mma<BK>(xs, kLd, us, kLd);
            __syncthreads();
        }
        g.combine(u, [](float gv, float uv) { return silu(gv) * uv; });
    }
};

}  // namespace fusescope::mlp::device
