// The production fusion's prefill gate_up kernel on Hopper (sm_90a): the same GEMM with SiLU*up in
// its epilogue as mlp_production_tiled.cu, at tiles of 128 x 128 or 128 x 112 (TILE_M x TILE_I,
// production::gateUpLaunchTiles), on the Hopper tensor-core path that mma.sync cannot reach: tiles
// of x, gate and up come in by TMA (128-byte swizzle) into a 4-deep ring guarded by mbarriers, and
// two consumer warpgroups multiply them with wgmma while a producer warp keeps the ring full. Each
// consumer owns 64 rows of the M tile and accumulates its g and u tiles in registers with one
// m64n(2 TILE_I) wgmma a k step (gate's and up's tiles lie one after the other); the epilogue
// writes h = silu(g) * u once. The grid is persistent, one block an SM walking the tiles in bands
// of M tiles, M tiles fastest within a band, so the blocks that share one tile of gate and up run
// together, a band's rows of x stay in the L2, and the L2 serves the re-reads the traffic model
// charges; a block's producer fetches its next tile while its consumers write the last one's h.
//
// Built only for sm_90a (its own CMake target); the launcher runs it on compute capability 9.0
// and the caller falls back to the mma.sync kernel elsewhere.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "pipelines/mlp/mlp_gate_up_hopper.h"
#include "pipelines/mlp/mlp_tiled_module_cuda.h"
#include "platform/cuda_error.h"
#include "platform/kernel_shared_memory.h"

namespace fusescope::mlp {
namespace {

constexpr int kTileM = production::kHopperTileM, kStepK = 64, kStages = 4;
constexpr int kConsumers = 2;  // warpgroups of 128 threads, 64 rows each
constexpr int kThreads = 128 * (kConsumers + 1);
constexpr int kXTileBytes = kTileM * kStepK * 2;

// The shared-memory layout at one I tile.
template <int kTileI>
struct HopperTiles {
    static constexpr int kWTileBytes = kTileI * kStepK * 2;
    // A thread's accumulators of its warpgroup's 64 x (2 TILE_I) product: g's columns in the
    // first half, u's in the second.
    static constexpr int kAccumulators = 64 * 2 * kTileI / 128;
    static constexpr int kStageBytes = kXTileBytes + 2 * kWTileBytes;
    // The ring, 1 KiB of slack to align it for the 128-byte swizzle, and the full and empty
    // barriers.
    static constexpr int kSharedBytes = kStages * kStageBytes + 1024 + 2 * kStages * 8;
    static_assert(kXTileBytes % 1024 == 0 && kWTileBytes % 1024 == 0, "tiles keep 1 KiB alignment");
};

__device__ __forceinline__ std::uint32_t sharedAddress(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void barrierInit(std::uint32_t barrier, int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(barrier), "r"(count));
}

__device__ __forceinline__ void barrierExpectBytes(std::uint32_t barrier, int bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barrier),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void barrierArrive(std::uint32_t barrier) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(barrier) : "memory");
}

__device__ __forceinline__ void barrierWait(std::uint32_t barrier, int parity) {
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        "WAIT:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra WAIT;\n"
        "}\n" ::"r"(barrier),
        "r"(parity)
        : "memory");
}

// One box of a 2-D tensor map (column, row) into shared memory; completes on the barrier.
__device__ __forceinline__ void tmaLoad(std::uint32_t destination, const CUtensorMap* map,
                                        std::uint32_t barrier, int column, int row) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(destination),
        "l"(reinterpret_cast<std::uint64_t>(map)), "r"(barrier), "r"(column), "r"(row)
        : "memory");
}

// A shared-memory matrix descriptor: K-major rows of 128 bytes in 8-row, 1 KiB swizzle atoms.
__device__ __forceinline__ std::uint64_t matrixDescriptor(std::uint32_t address) {
    return static_cast<std::uint64_t>((address & 0x3FFFF) >> 4) | (1ull << 16) |
           (static_cast<std::uint64_t>(1024 >> 4) << 32) | (1ull << 62);
}

// d (64 x N, float32) += a (64 x 16) * b (N x 16)^T, both bfloat16 in shared memory. b is the gate
// tile and the up tile one after the other (N = 2 TILE_I), so one instruction computes g and u.
__device__ __forceinline__ void mma64x256(float (&d)[128], std::uint64_t a, std::uint64_t b) {
    asm volatile(
        "{\n"
        ".reg .pred accumulate;\n"
        "setp.ne.b32 accumulate, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "
        "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "
        "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, "
        "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, "
        "%70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, "
        "%87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, "
        "%104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, "
        "%118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, accumulate, 1, "
        "1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
          "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
          "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
          "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
          "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
          "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
          "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
          "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
          "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
          "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
          "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
          "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
          "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
          "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
          "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(a), "l"(b), "r"(1));
}
__device__ __forceinline__ void mma64x224(float (&d)[112], std::uint64_t a, std::uint64_t b) {
    asm volatile(
        "{\n"
        ".reg .pred accumulate;\n"
        "setp.ne.b32 accumulate, %114, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n224k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "
        "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "
        "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, "
        "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, "
        "%70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, "
        "%87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, "
        "%104, %105, %106, %107, %108, %109, %110, %111}, %112, %113, accumulate, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
          "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
          "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
          "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
          "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
          "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
          "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
          "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
          "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
          "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
          "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
          "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
          "+f"(d[110]), "+f"(d[111])
        : "l"(a), "l"(b), "r"(1));
}

template <int kColumns>
__device__ __forceinline__ void mmaGateAndUp(float (&d)[kColumns / 2], std::uint64_t a,
                                             std::uint64_t b) {
    if constexpr (kColumns == 256)
        mma64x256(d, a, b);
    else
        mma64x224(d, a, b);
}

__device__ __forceinline__ void mmaFence() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void mmaCommit() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int kPending>
__device__ __forceinline__ void mmaWait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// silu(g) = g sigmoid(g) = g/2 + g/2 tanh(g/2): one MUFU op where an exponential and a division
// take two (and an IEEE division a dozen instructions more), in an epilogue the tensor cores wait
// for. tanh.approx errs by about 2^-11, so silu by at most about |g| 2^-12: below the rounding of
// h to bfloat16 wherever h is not close to zero. On the H200 at Llama-3-8B prefill-4096 it took
// 2.4 and 3.3% off production's time against the exponential (two interleaved runs each).
__device__ __forceinline__ float silu(float g) {
    const float half = 0.5f * g;
    float t;
    asm("tanh.approx.f32 %0, %1;\n" : "=f"(t) : "f"(half));
    return fmaf(half, t, half);
}
// Two values rounded to bfloat16 and packed in one instruction, low in the low half.
__device__ __forceinline__ unsigned packBf16(float low, float high) {
    unsigned r;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(high), "f"(low));
    return r;
}

__device__ __forceinline__ unsigned short toBf16(float v) {
    unsigned short r;
    asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(r) : "f"(v));
    return r;
}

// Writes h = silu(g) * u for the consumer's 64 rows of the tile at (m0, i0). Accumulator layout
// of wgmma m64nN: warp w of the warpgroup holds rows 16w..16w+15; register 4j + e holds row
// (lane / 4) + 8 (e / 2), column 8j + 2 (lane % 4) + e % 2. So g's column c and u's column c sit
// half the accumulators apart.
template <int kTileI>
__device__ __forceinline__ void storeTile(const float (&d)[HopperTiles<kTileI>::kAccumulators],
                                          unsigned short* __restrict__ h, int M, int I, int m0,
                                          int i0, int consumer) {
    const float* g = d;
    const float* u = d + HopperTiles<kTileI>::kAccumulators / 2;
    const int lane = static_cast<int>(threadIdx.x) % 32,
              warp = (static_cast<int>(threadIdx.x) % 128) / 32;
    const int rowBase = m0 + consumer * 64 + warp * 16 + lane / 4;
    const int quadLane = lane % 4;
    const bool odd = (lane & 1) != 0;
    const bool pairs = I % 2 == 0;
    // 8-byte stores need every row to start on 8 bytes.
    const bool quads = I % 4 == 0;
#pragma unroll
    for (int J = 0; J < kTileI / 16; ++J) {
        // Columns 16J..16J+15 of the tile: a quad holds them as packed pairs, lane q the pairs at
        // 2q (register set j = 2J) and 8 + 2q (j = 2J + 1). Written that way each 32-byte sector
        // of a row takes two stores of 16 bytes, and the L2 sees twice the bytes of h in write
        // requests. Partner lanes (q, q ^ 1) swap one pair instead, so that each lane holds 4
        // adjacent columns and the quad's four 8-byte stores cover the row's sector at once:
        // even q writes columns 2q..2q+3, odd q writes 2q+6..2q+9.
        const int column16 = i0 + 16 * J;
        const bool whole = quads && column16 + 16 <= I;  // the same in every lane of the warp
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int row = rowBase + 8 * half;
            const int a = 8 * J + 2 * half, b = a + 4;
            const float a0 = silu(g[a]) * u[a], a1 = silu(g[a + 1]) * u[a + 1];
            const float b0 = silu(g[b]) * u[b], b1 = silu(g[b + 1]) * u[b + 1];
            const unsigned first = packBf16(a0, a1);
            const unsigned second = packBf16(b0, b1);
            // Every lane takes part in the exchange, whatever its row.
            const unsigned partner = __shfl_xor_sync(0xffffffffu, odd ? first : second, 1);
            if (row >= M) continue;
            unsigned short* rowOut = h + static_cast<std::int64_t>(row) * I;
            if (whole) {
                const int column = column16 + 2 * quadLane + (odd ? 6 : 0);
                *reinterpret_cast<uint2*>(rowOut + column) =
                    odd ? make_uint2(partner, second) : make_uint2(first, partner);
                continue;
            }
            // At the edges (the last columns of I, or rows not on 8 bytes): pair by pair.
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                const int column = column16 + 8 * j + 2 * quadLane;
                const float h0 = j == 0 ? a0 : b0, h1 = j == 0 ? a1 : b1;
                unsigned short* out = rowOut + column;
                if (pairs && column + 1 < I) {
                    *reinterpret_cast<unsigned*>(out) = j == 0 ? first : second;
                } else {
                    if (column < I) out[0] = toBf16(h0);
                    if (column + 1 < I) out[1] = toBf16(h1);
                }
            }
        }
    }
}

// Tile t's origin: bands of bandM M tiles, M tiles fastest within a band, so that the blocks
// running together share the band's rows of x and their tiles of gate and up in the L2.
struct TileOrigin {
    int m0, i0;
};
template <int kTileI>
__device__ __forceinline__ TileOrigin tileOrigin(int t, int tilesM, int tilesI, int bandM) {
    const int band = t / (bandM * tilesI), within = t % (bandM * tilesI);
    const int rows = min(bandM, tilesM - band * bandM);
    return {(band * bandM + within % rows) * kTileM, within / rows * kTileI};
}

// A persistent grid (at most one block an SM): block b computes tiles b, b + gridDim.x, ... in
// the band order above.
// The producer streams the next tile's stages while the consumers write the previous one's h.
template <int kTileI>
__global__ void __launch_bounds__(kThreads, 1)
    gateUpSiluHopper(const __grid_constant__ CUtensorMap xMap,
                     const __grid_constant__ CUtensorMap gateMap,
                     const __grid_constant__ CUtensorMap upMap, unsigned short* __restrict__ h,
                     int M, int H, int I, int bandM) {
    using Tiles = HopperTiles<kTileI>;
    constexpr int kWTileBytes = Tiles::kWTileBytes, kStageBytes = Tiles::kStageBytes;
    constexpr int kAccumulators = Tiles::kAccumulators;
    extern __shared__ unsigned char shared[];
    const std::uint32_t ring = (sharedAddress(shared) + 1023u) & ~1023u;
    const std::uint32_t fullBarriers = ring + kStages * kStageBytes;
    const std::uint32_t emptyBarriers = fullBarriers + kStages * 8;
    const int warpgroup = static_cast<int>(threadIdx.x) / 128;
    const int steps = (H + kStepK - 1) / kStepK;
    const int tilesM = (M + kTileM - 1) / kTileM;
    const int tilesI = (I + kTileI - 1) / kTileI;
    const int tiles = tilesM * tilesI;

    if (threadIdx.x == 0) {
        for (int s = 0; s < kStages; ++s) {
            barrierInit(fullBarriers + 8 * s, 1);
            barrierInit(emptyBarriers + 8 * s, kConsumers);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();

    if (warpgroup == 0) {
        // The producer: one thread issues the copies (TMA zero-fills what lies past M, H or I).
        // `filled` counts the stages filled over all of the block's tiles.
        if (threadIdx.x != 0) return;
        int filled = 0;
        for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x)) {
            const auto [m0, i0] = tileOrigin<kTileI>(t, tilesM, tilesI, bandM);
            for (int step = 0; step < steps; ++step, ++filled) {
                const int s = filled % kStages, round = filled / kStages;
                if (round > 0) barrierWait(emptyBarriers + 8 * s, (round - 1) & 1);
                const std::uint32_t stage = ring + s * kStageBytes;
                const std::uint32_t full = fullBarriers + 8 * s;
                barrierExpectBytes(full, kStageBytes);
                tmaLoad(stage, &xMap, full, step * kStepK, m0);
                tmaLoad(stage + kXTileBytes, &gateMap, full, step * kStepK, i0);
                tmaLoad(stage + kXTileBytes + kWTileBytes, &upMap, full, step * kStepK, i0);
            }
        }
        return;
    }

    const int consumer = warpgroup - 1;
    int used = 0;  // stages consumed over all of the block's tiles
    for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x)) {
        float d[kAccumulators];
#pragma unroll
        for (int r = 0; r < kAccumulators; ++r) d[r] = 0.0f;
        for (int step = 0; step < steps; ++step, ++used) {
            const int s = used % kStages;
            barrierWait(fullBarriers + 8 * s, (used / kStages) & 1);
            const std::uint32_t stage = ring + s * kStageBytes;
            const std::uint32_t x = stage + consumer * 64 * 128;
            const std::uint32_t gateAndUp = stage + kXTileBytes;
            mmaFence();
#pragma unroll
            for (int k = 0; k < kStepK / 16; ++k)
                mmaGateAndUp<2 * kTileI>(d, matrixDescriptor(x + 32 * k),
                                         matrixDescriptor(gateAndUp + 32 * k));
            mmaCommit();
            // The previous step's products are done: its stage goes back to the producer.
            mmaWait<1>();
            if (step > 0 && threadIdx.x % 128 == 0)
                barrierArrive(emptyBarriers + 8 * ((used - 1) % kStages));
        }
        mmaWait<0>();
        // The tile's last stage goes back too, before its h is written.
        if (threadIdx.x % 128 == 0) barrierArrive(emptyBarriers + 8 * ((used - 1) % kStages));
        const auto [m0, i0] = tileOrigin<kTileI>(t, tilesM, tilesI, bandM);
        storeTile<kTileI>(d, h, M, I, m0, i0, consumer);
    }
}

// cuTensorMapEncodeTiled from the driver, found through the runtime (no link to libcuda).
Result<PFN_cuTensorMapEncodeTiled_v12000> tensorMapEncoder() {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (Status s = cudaStatus(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function,
                                                               12000, cudaEnableDefault, &found),
                              "finding cuTensorMapEncodeTiled in the driver");
        !s)
        return s;
    if (found != cudaDriverEntryPointSuccess || function == nullptr)
        return Status(ErrorCode::DeviceUnavailable,
                      "the driver has no cuTensorMapEncodeTiled (TMA needs CUDA 12 or newer)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
}

// A row-major bfloat16 matrix of rows x columns, read in boxes of boxRows x 64 columns.
Result<CUtensorMap> tensorMapOf(PFN_cuTensorMapEncodeTiled_v12000 encode, const void* matrix,
                                std::int64_t rows, std::int64_t columns, int boxRows,
                                const char* name) {
    CUtensorMap map;
    const cuuint64_t size[2] = {static_cast<cuuint64_t>(columns), static_cast<cuuint64_t>(rows)};
    const cuuint64_t stride[1] = {static_cast<cuuint64_t>(columns) * 2};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(kStepK), static_cast<cuuint32_t>(boxRows)};
    const cuuint32_t elementStride[2] = {1, 1};
    const CUresult result =
        encode(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(matrix), size, stride,
               box, elementStride, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
               CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
        return Status(ErrorCode::DeviceError, std::string("encoding the TMA descriptor of ") +
                                                  name + " failed (CUresult " +
                                                  std::to_string(result) + ")");
    return map;
}

// The I tile the shape runs at (the traffic model charges the same one).
int tileIOf(const MlpShape& shape) {
    return production::gateUpLaunchTiles(production::kDefaultTiles, DType::Bfloat16, shape).tileI;
}

std::int64_t tilesOf(const MlpShape& shape) {
    return ceilDiv(shape.M, kTileM) * ceilDiv(shape.I, tileIOf(shape));
}

// The persistent grid: one block an SM, or one a tile where there are fewer tiles.
Result<int> blocksOf(const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    return static_cast<int>(std::min<std::int64_t>(tilesOf(shape), device->multiprocessors));
}

// The M tiles of a band: the fewest equal bands whose rows of x each fit in a third of the L2, so
// that a band's x stays there while every tile of gate and up streams past it once a band. With
// the whole of M in one band, x is read again from DRAM for every round of I tiles where it
// outgrows the L2 (Llama-3-8B at M = 4096 on the H200: 1.32 GB read by ncu, 0.74 GB in two bands).
Result<int> bandOf(const MlpShape& shape) {
    Result<TiledDeviceFacts> device = tiledDeviceFacts();
    if (!device) return device.status();
    const std::int64_t tilesM = ceilDiv(shape.M, kTileM);
    const std::int64_t xBytes = tilesM * kTileM * shape.H * 2;
    const std::int64_t bands = std::clamp<std::int64_t>(
        ceilDiv(xBytes, std::max<std::int64_t>(1, device->l2Bytes / 3)), 1, tilesM);
    return static_cast<int>(ceilDiv(tilesM, bands));
}

template <int kTileI>
KernelResources resourcesAt(const MlpShape& shape) {
    Result<int> blocks = blocksOf(shape);
    if (!blocks) return {};
    return kernelResourcesOf(reinterpret_cast<const void*>(&gateUpSiluHopper<kTileI>), kThreads,
                             HopperTiles<kTileI>::kSharedBytes, *blocks);
}

template <int kTileI>
Status launchAt(const MlpShape& shape, const void* x, const void* gate, const void* up, void* h,
                cudaStream_t stream) {
    constexpr int kSharedBytes = HopperTiles<kTileI>::kSharedBytes;
    Result<PFN_cuTensorMapEncodeTiled_v12000> encode = tensorMapEncoder();
    if (!encode) return encode.status();
    Result<CUtensorMap> xMap = tensorMapOf(*encode, x, shape.M, shape.H, kTileM, "x");
    if (!xMap) return xMap.status();
    Result<CUtensorMap> gateMap = tensorMapOf(*encode, gate, shape.I, shape.H, kTileI, "gate");
    if (!gateMap) return gateMap.status();
    Result<CUtensorMap> upMap = tensorMapOf(*encode, up, shape.I, shape.H, kTileI, "up");
    if (!upMap) return upMap.status();
    if (Status s = allowDynamicSharedMemory(gateUpSiluHopper<kTileI>, kSharedBytes,
                                            "Hopper gate_up kernel");
        !s)
        return s;
    Result<int> blocks = blocksOf(shape);
    if (!blocks) return blocks.status();
    Result<int> bandM = bandOf(shape);
    if (!bandM) return bandM.status();
    gateUpSiluHopper<kTileI><<<*blocks, kThreads, kSharedBytes, stream>>>(
        *xMap, *gateMap, *upMap, static_cast<unsigned short*>(h), static_cast<int>(shape.M),
        static_cast<int>(shape.H), static_cast<int>(shape.I), *bandM);
    return cudaStatus(cudaGetLastError(), "gate_up_silu (Hopper) launch");
}

}  // namespace

bool gateUpHopperRuns(const MlpShape& shape) {
    int device = 0, major = 0, minor = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    // TMA reads rows at 16-byte strides; the kernel counts tiles in an int.
    return major == 9 && minor == 0 && shape.H % 8 == 0 && shape.M <= INT32_MAX &&
           shape.H <= INT32_MAX && shape.I <= INT32_MAX && tilesOf(shape) <= INT32_MAX;
}

KernelResources gateUpHopperResources(const MlpShape& shape) {
    return tileIOf(shape) == production::kHopperNarrowTileI
               ? resourcesAt<production::kHopperNarrowTileI>(shape)
               : resourcesAt<production::kTileI>(shape);
}

Status launchGateUpHopper(const MlpShape& shape, const void* x, const void* gate, const void* up,
                          void* h, cudaStream_t stream) {
    return tileIOf(shape) == production::kHopperNarrowTileI
               ? launchAt<production::kHopperNarrowTileI>(shape, x, gate, up, h, stream)
               : launchAt<production::kTileI>(shape, x, gate, up, h, stream);
}

}  // namespace fusescope::mlp
