#pragma once
// A block's tile of C += A * B^T with A (BM x BK) and B (BN x BK) staged in shared memory, both
// K-contiguous as x, the weights and h are stored. bfloat16 runs on the tensor cores through WMMA
// 16x16x16 fragments; float32 runs on CUDA cores with a register micro-tile per thread (no TF32).
// Also the tile loader and the gate/up main loop that the lesson and production kernels share.
#include <mma.h>

#include "pipelines/mlp/mlp_device.cuh"

namespace fusescope::mlp::device {

// Shared-memory row padding in elements: WMMA needs rows in multiples of 16 bytes; float32 rows
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

// Warps along M for a BM x BN tile: the split whose warp tiles are closest to square.
constexpr int pickWarpsM(int fragRows, int fragCols, int warps) {
    int best = 1, bestSkew = 1 << 30;
    for (int wm = 1; wm <= warps; ++wm) {
        if (warps % wm != 0 || fragRows % wm != 0 || fragCols % (warps / wm) != 0) continue;
        const int skew = fragRows / wm > fragCols / (warps / wm)
                             ? fragRows / wm - fragCols / (warps / wm)
                             : fragCols / (warps / wm) - fragRows / wm;
        if (skew < bestSkew) best = wm, bestSkew = skew;
    }
    return best;
}

template <typename T, int BM, int BN, int kThreads>
struct TileAccumulator;

template <int BM, int BN, int kThreads>
struct TileAccumulator<bf16, BM, BN, kThreads> {
    static constexpr int kWarps = kThreads / 32;
    static constexpr int kWarpsM = pickWarpsM(BM / 16, BN / 16, kWarps);
    static constexpr int kWarpsN = kWarps / kWarpsM;
    static constexpr int kFragsM = BM / 16 / kWarpsM;
    static constexpr int kFragsN = BN / 16 / kWarpsN;
    static_assert(BM % 16 == 0 && BN % 16 == 0 && kFragsM * kWarpsM * 16 == BM &&
                      kFragsN * kWarpsN * 16 == BN,
                  "tile must split into whole 16x16 fragments over the warps");
    using Fragment = nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float>;
    Fragment frag[kFragsM][kFragsN];

    __device__ __forceinline__ void zero() {
#pragma unroll
        for (int i = 0; i < kFragsM; ++i)
#pragma unroll
            for (int j = 0; j < kFragsN; ++j) nvcuda::wmma::fill_fragment(frag[i][j], 0.0f);
    }

    template <int BK>
    __device__ __forceinline__ void mma(const bf16* a, int lda, const bf16* b, int ldb) {
        using namespace nvcuda;
        const int warp = static_cast<int>(threadIdx.x) / 32;
        const int rowBase = warp / kWarpsN * kFragsM * 16;
        const int colBase = warp % kWarpsN * kFragsN * 16;
#pragma unroll
        for (int k = 0; k < BK; k += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa[kFragsM];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> fb[kFragsN];
#pragma unroll
            for (int i = 0; i < kFragsM; ++i)
                wmma::load_matrix_sync(fa[i], a + (rowBase + i * 16) * lda + k, lda);
#pragma unroll
            for (int j = 0; j < kFragsN; ++j)
                wmma::load_matrix_sync(fb[j], b + (colBase + j * 16) * ldb + k, ldb);
#pragma unroll
            for (int i = 0; i < kFragsM; ++i)
#pragma unroll
                for (int j = 0; j < kFragsN; ++j)
                    wmma::mma_sync(frag[i][j], fa[i], fb[j], frag[i][j]);
        }
    }

    // out[e] = f(a[e], b[e]): fragments of one type share one element layout.
    template <typename F>
    __device__ __forceinline__ void combine(const TileAccumulator& other, F f) {
#pragma unroll
        for (int i = 0; i < kFragsM; ++i)
#pragma unroll
            for (int j = 0; j < kFragsN; ++j)
#pragma unroll
                for (int e = 0; e < Fragment::num_elements; ++e)
                    frag[i][j].x[e] = f(frag[i][j].x[e], other.frag[i][j].x[e]);
    }

    __device__ __forceinline__ void store(float* staging, int ld) const {
        const int warp = static_cast<int>(threadIdx.x) / 32;
        const int rowBase = warp / kWarpsN * kFragsM * 16;
        const int colBase = warp % kWarpsN * kFragsN * 16;
#pragma unroll
        for (int i = 0; i < kFragsM; ++i)
#pragma unroll
            for (int j = 0; j < kFragsN; ++j)
                nvcuda::wmma::store_matrix_sync(
                    staging + (rowBase + i * 16) * ld + colBase + j * 16, frag[i][j], ld,
                    nvcuda::wmma::mem_row_major);
    }
};

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
