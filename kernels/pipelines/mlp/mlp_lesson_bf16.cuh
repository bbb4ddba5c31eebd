#pragma once
// The lesson kernel's bfloat16 path, written for few issued instructions per tensor-core product:
// its structure is the lesson's (a grid of 32-row M tiles x 64-column output tiles; per 64-wide I
// chunk, g and u accumulated over all of H in 64-wide steps, SiLU*up in registers, the hidden tile
// times down's chunk accumulated into the block's output), so gate and up are still re-read for
// every output-column tile.
//
// Why it is shaped like this: at the lesson's tiles the grid holds about two blocks an SM, so
// occupancy cannot hide latency and the instructions between two barriers decide the time. Every
// shared-memory address is a 32-bit register fixed per thread (one per ldmatrix k step) plus a
// compile-time offset (tile, row group), the stage's base being the only per-step addition; copies
// of whole tiles carry no bounds checks (kFull), and global addresses take one add per row.
#include "pipelines/mlp/mlp_async_copy.cuh"
#include "pipelines/mlp/mlp_device.cuh"

namespace fusescope::mlp::lesson_bf16 {

using device::bf16;

constexpr int kThreads = 128;            // Triton's default num_warps = 4
constexpr int kRowBytes = 128;           // every staged tile is 64 bfloat16 wide
constexpr int kXBytes = 32 * kRowBytes;  // x (or hidden) tile: BM = 32 rows
constexpr int kWBytes = 64 * kRowBytes;  // gate, up and down tiles: 64 rows
constexpr int kGateAt = kXBytes;
constexpr int kUpAt = kXBytes + kWBytes;
constexpr int kStageBytes = kXBytes + 2 * kWBytes;
constexpr int kRowGroupBytes = 16 * kRowBytes;  // a copy pass covers 16 rows (128 threads x 16 B)

template <int kStages>
struct Plan {
    static constexpr int kDownAt = kStages * kStageBytes;  // one down slot per stage
    static constexpr int kBytes = kDownAt + kStages * kWBytes;
};

// Byte offset of element (r, c) of a tile: 128-byte rows whose 16-byte unit u is stored at unit
// u ^ (r % 8), so the 8 rows one ldmatrix reads at one column fall in 8 different bank groups.
__device__ __forceinline__ int swizzled(int r, int c) {
    return r * kRowBytes + ((((c >> 3) ^ r) & 7) << 4) + (c & 7) * 2;
}

// Copies are cp.async.cg (L2 only): L1-allocating copies (.ca, shared memory cut to what two
// blocks need) measured slower on the H200 (466.8 against 373.9 us at the classroom shape).
using device::copyAsync16At;
using device::loadMatricesAt;

// Partial tiles: zero-filled outside rowLimit x colLimit; `aligned` rows are whole 16-byte units
// (then cp.async, else element by element).
template <int kRows>
__device__ __forceinline__ void copyTileChecked(unsigned char* tile, const bf16* __restrict__ src,
                                                int ld, int row0, int col0, int rowLimit,
                                                int colLimit, bool aligned) {
    const int unit = static_cast<int>(threadIdx.x) % 8, r0 = static_cast<int>(threadIdx.x) / 8;
    const int col = col0 + unit * 8;
#pragma unroll
    for (int j = 0; j < kRows / 16; ++j) {
        const int r = r0 + 16 * j;
        const bool rowValid = row0 + r < rowLimit;
        const bf16* p = src + static_cast<std::int64_t>(row0 + r) * ld + col;
        unsigned char* dst = tile + swizzled(r, unit * 8);
        if (aligned) {
            const bool valid = rowValid && col < colLimit;
            device::copyAsync16(dst, valid ? p : src, valid);
        } else {
            bf16* d = reinterpret_cast<bf16*>(dst);
#pragma unroll
            for (int e = 0; e < 8; ++e)
                d[e] = rowValid && col + e < colLimit ? p[e] : __float2bfloat16_rn(0.0f);
        }
    }
}

// Copies a tile inside the matrix: this thread's unit of rows r0, r0 + 16, ... (kRows / 16 of
// them), `from` being its unit of row r0 and `at` its shared address in the tile at offset 0.
template <int kRows, int kOffset>
__device__ __forceinline__ void copyWholeTile(unsigned at, const bf16* from,
                                              std::int64_t rows16) {
    copyAsync16At<kOffset>(at, from);
    if constexpr (kRows > 16)
        copyWholeTile<kRows - 16, kOffset + kRowGroupBytes>(at, from + rows16, rows16);
}

__device__ __forceinline__ void mma(float (&c)[4], const unsigned (&a)[4], unsigned b0,
                                    unsigned b1) {
    device::mmaBf16(c, a, b0, b1);
}

// Warp w owns columns [16w, 16w + 16) of the g, u and output tiles, all 32 rows: per 16-deep k
// step two A fragments (x rows 0-15, 16-31) serve both of its B fragments (gate, up).
// offA[k], offB[k]: this lane's ldmatrix byte offsets in a 32-row and in a 64-row tile.
struct Fragments {
    unsigned offA[4], offB[4];

    __device__ __forceinline__ Fragments() {
        const int lane = static_cast<int>(threadIdx.x) % 32,
                  warp = static_cast<int>(threadIdx.x) / 32;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            offA[k] = static_cast<unsigned>(
                swizzled(lane % 8 + (lane / 8) % 2 * 8, k * 16 + lane / 16 * 8));
            offB[k] = static_cast<unsigned>(
                swizzled(warp * 16 + lane % 8 + lane / 16 * 8, k * 16 + (lane / 8) % 2 * 8));
        }
    }
};

// acc[i][j]: rows 16i.., columns 16w + 8j..
using Accumulator = float[2][2][4];

__device__ __forceinline__ void zero(Accumulator& acc) {
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;
}

// g += x * gate^T, u += x * up^T over one 64-wide H step of the stage at `stage`.
__device__ __forceinline__ void gateUpStep(Accumulator& g, Accumulator& u, const Fragments& f,
                                           unsigned stage) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        unsigned a0[4], a1[4], bg[4], bu[4];
        const unsigned a = stage + f.offA[k], b = stage + f.offB[k];
        loadMatricesAt<0>(a0, a);
        loadMatricesAt<kRowGroupBytes>(a1, a);
        loadMatricesAt<kGateAt>(bg, b);
        loadMatricesAt<kUpAt>(bu, b);
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            mma(g[0][j], a0, bg[2 * j], bg[2 * j + 1]);
            mma(g[1][j], a1, bg[2 * j], bg[2 * j + 1]);
            mma(u[0][j], a0, bu[2 * j], bu[2 * j + 1]);
            mma(u[1][j], a1, bu[2 * j], bu[2 * j + 1]);
        }
    }
}

// o += hidden * down^T over one I chunk; hidden is a 32-row tile at `hidden`, down's 64 x 64 tile
// at `downTile`.
__device__ __forceinline__ void downChunk(Accumulator& o, const Fragments& f, unsigned hidden,
                                          unsigned downTile) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        unsigned a0[4], a1[4], b[4];
        loadMatricesAt<0>(a0, hidden + f.offA[k]);
        loadMatricesAt<kRowGroupBytes>(a1, hidden + f.offA[k]);
        loadMatricesAt<0>(b, downTile + f.offB[k]);
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            mma(o[0][j], a0, b[2 * j], b[2 * j + 1]);
            mma(o[1][j], a1, b[2 * j], b[2 * j + 1]);
        }
    }
}

// hidden(r, c) = silu(g) * u rounded to bfloat16, as the lesson's h.to(down's dtype).
__device__ __forceinline__ void storeHidden(unsigned char* hidden, const Accumulator& g,
                                            const Accumulator& u) {
    const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int r = i * 16 + lane / 4 + half * 8;
                const int c = warp * 16 + j * 8 + lane % 4 * 2;
                const __nv_bfloat162 pair = __floats2bfloat162_rn(
                    fsLessonSilu(g[i][j][2 * half]) * u[i][j][2 * half],
                    fsLessonSilu(g[i][j][2 * half + 1]) * u[i][j][2 * half + 1]);
                *reinterpret_cast<__nv_bfloat162*>(hidden + swizzled(r, c)) = pair;
            }
}

__device__ __forceinline__ void storeOut(bf16* __restrict__ out, const Accumulator& o, int M, int H,
                                         int m0, int n0) {
    const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int r = m0 + i * 16 + lane / 4 + e / 2 * 8;
                const int c = n0 + warp * 16 + j * 8 + lane % 4 * 2 + e % 2;
                if (r < M && c < H)
                    out[static_cast<std::int64_t>(r) * H + c] = __float2bfloat16_rn(o[i][j][e]);
            }
}

// kFull: M, H and I are whole tiles (32, 64, 64), so no copy needs a bounds check; otherwise
// each tile is checked only where it crosses the matrix's edge.
template <bool kFull, int kStages>
__global__ void __launch_bounds__(kThreads, 2)
    swigluMlpLessonBf16(const bf16* __restrict__ x, const bf16* __restrict__ gate,
                        const bf16* __restrict__ up, const bf16* __restrict__ down,
                        bf16* __restrict__ out, MlpShape shape, bool alignedH, bool alignedI) {
    using P = Plan<kStages>;
    extern __shared__ __align__(128) unsigned char smem[];
    const unsigned smemBase = device::sharedAddress(smem);
    const int M = static_cast<int>(shape.M), H = static_cast<int>(shape.H);
    const int I = static_cast<int>(shape.I);
    const int m0 = static_cast<int>(blockIdx.x) * 32, n0 = static_cast<int>(blockIdx.y) * 64;
    const int stepsH = (H + 63) / 64, chunks = (I + 63) / 64;

    // This thread's copy slot: unit `unit` of rows r0, r0 + 16, ... of every tile.
    const int unit = static_cast<int>(threadIdx.x) % 8, r0 = static_cast<int>(threadIdx.x) / 8;
    const unsigned copyAt = static_cast<unsigned>(swizzled(r0, unit * 8));
    const std::int64_t rows16H = 16ll * H, rows16I = 16ll * I;
    const bf16* xRow = x + static_cast<std::int64_t>(m0 + r0) * H + unit * 8;
    const std::int64_t weightRow = static_cast<std::int64_t>(r0) * H + unit * 8;
    const bf16* downRow = down + static_cast<std::int64_t>(n0 + r0) * I + unit * 8;

    // The next step to stage: I chunk loadChunk, H step loadStep, into stage loadSlot; its chunk's
    // down tile into down slot loadChunk % kStages.
    int loadChunk = 0, loadStep = 0, loadSlot = 0, loadDownSlot = 0;
    const auto stageNext = [&] {
        if (loadChunk < chunks) {
            const int i0 = loadChunk * 64, k0 = loadStep * 64;
            const unsigned stageOffset = static_cast<unsigned>(loadSlot * kStageBytes);
            const unsigned downOffset = static_cast<unsigned>(P::kDownAt + loadDownSlot * kWBytes);
            // A tile inside the matrix is copied without checks in the edge kernel too: at decode
            // (M = 1) only x's tile is partial, and the checked copies of gate's, up's and
            // down's whole tiles were most of the instructions a step issued.
            const unsigned at = smemBase + stageOffset + copyAt;
            unsigned char* stage = smem + stageOffset;
            if (kFull || (alignedH && m0 + 32 <= M && k0 + 64 <= H))
                copyWholeTile<32, 0>(at, xRow + k0, rows16H);
            else
                copyTileChecked<32>(stage, x, H, m0, k0, M, H, alignedH);
            if (kFull || (alignedH && i0 + 64 <= I && k0 + 64 <= H)) {
                const std::int64_t w = weightRow + static_cast<std::int64_t>(i0) * H + k0;
                copyWholeTile<64, kGateAt>(at, gate + w, rows16H);
                copyWholeTile<64, kUpAt>(at, up + w, rows16H);
            } else {
                copyTileChecked<64>(stage + kGateAt, gate, H, i0, k0, I, H, alignedH);
                copyTileChecked<64>(stage + kUpAt, up, H, i0, k0, I, H, alignedH);
            }
            if (loadStep == 0) {
                if (kFull || (alignedI && n0 + 64 <= H && i0 + 64 <= I))
                    copyWholeTile<64, 0>(smemBase + downOffset + copyAt, downRow + i0, rows16I);
                else
                    copyTileChecked<64>(smem + downOffset, down, I, n0, i0, H, I, alignedI);
            }
            loadSlot = loadSlot + 1 == kStages ? 0 : loadSlot + 1;
            if (++loadStep == stepsH) {
                loadStep = 0;
                ++loadChunk;
                loadDownSlot = loadDownSlot + 1 == kStages ? 0 : loadDownSlot + 1;
            }
        }
        device::commitAsyncCopies();  // possibly empty: one group per step keeps the count simple
    };

    const Fragments f;
    Accumulator g, u, o;
    zero(g);
    zero(u);
    zero(o);
    for (int s = 0; s < kStages - 1; ++s) stageNext();
    int slot = 0, downSlot = 0, step = 0;
    const int steps = chunks * stepsH;
    for (int t = 0; t < steps; ++t) {
        device::waitAsyncCopies<kStages - 2>();
        __syncthreads();  // this step is visible to all; the previous step's stage is free
        // Copies first: issuing this step's ldmatrix loads before them measured slower (H200,
        // classroom: 389.7 against 370.7 us).
        stageNext();
        const unsigned stage = static_cast<unsigned>(slot * kStageBytes);
        gateUpStep(g, u, f, smemBase + stage);
        slot = slot + 1 == kStages ? 0 : slot + 1;
        if (++step == stepsH) {
            step = 0;
            // g and u are zero beyond I and M (zero-filled tiles), so hidden is too. It goes where
            // this step's x tile was, once every warp is done with that.
            __syncthreads();
            storeHidden(smem + stage, g, u);
            __syncthreads();
            downChunk(o, f, smemBase + stage,
                      smemBase + static_cast<unsigned>(P::kDownAt + downSlot * kWBytes));
            downSlot = downSlot + 1 == kStages ? 0 : downSlot + 1;
            zero(g);
            zero(u);
        }
    }
    device::waitAsyncCopies<0>();
    storeOut(out, o, M, H, m0, n0);
}

}  // namespace fusescope::mlp::lesson_bf16
