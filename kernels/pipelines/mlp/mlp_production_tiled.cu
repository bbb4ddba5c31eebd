// The production fusion's prefill kernel (gate and up as one GEMM with SiLU*up in its epilogue,
// as in mlp_gate_up_silu.cu) for any allowed tiles, compiled at run time by NVRTC (embedded in
// the program; see mlp_production_tiled.h). bfloat16 on the tensor cores only.
//
// The structure is the precompiled kernel's: a grid of M tiles (fastest) x I tiles; 8 warps;
// per 64-deep H step the x tile and the gate and up tiles are staged by cp.async in a 3-deep ring
// of XOR-swizzled 128-byte rows and multiplied with ldmatrix and mma.m16n8k16. Each warp owns 16
// columns of both g and u; FS_TI / 16 warps cover the I tile and the other 8 / (FS_TI / 16) split
// the FS_TM rows, so the default 128 x 128 tiles give the precompiled kernel's 8 warps of
// 128 x 16 and the same sums in the same order.
//
// Self-contained on purpose: NVRTC 13 has no built-in cuda_bf16.h, so bfloat16 is stored as
// unsigned short and converted with the PTX cvt instructions. Compiled with -DFS_TM (64 or 128),
// -DFS_TI (32, 64 or 128) and -DFS_MIN_BLOCKS (the blocks per SM the registers are bounded
// for). Two entry points: _full for shapes that are whole tiles (no bounds checks in the copies),
// _edge for the rest.

#define FS_THREADS 256
#define FS_BK 64
#define FS_STAGES 3

// fs_bf16, fsSilu and the PTX wrappers: mlp_tiled_prelude.cuh, put in front of this text.

constexpr int kWarpsI = FS_TI / 16;
constexpr int kWarpsM = 8 / kWarpsI;
constexpr int kWarpRows = FS_TM / kWarpsM;
constexpr int kRowFragments = kWarpRows / 16;
constexpr int kXTile = FS_TM * FS_BK, kWTile = FS_TI * FS_BK;  // elements
constexpr int kStage = kXTile + 2 * kWTile;
static_assert(FS_TI % 16 == 0 && 8 % kWarpsI == 0, "an I tile is 16 columns per warp");
static_assert(FS_TM % (16 * kWarpsM) == 0, "every warp owns whole 16-row fragments");
static_assert(FS_TM % 32 == 0 && FS_TI % 32 == 0, "a copy pass covers 32 rows");

// Element (r, c) of a swizzled tile of 64-element rows: 16-byte unit c / 8 is stored at
// (c / 8) ^ (r % 8), so the 8 rows one ldmatrix reads fall in 8 different bank groups.
__device__ __forceinline__ int fsAt(int r, int c) {
    return r * FS_BK + ((((c >> 3) ^ r) & 7) << 3) + (c & 7);
}

// kRows x 64 tile of src (rows of length ld) from (row0, col0), zero outside the limits. Thread
// t copies unit t % 8 of rows t / 8 + 32 j.
template <int kRows>
__device__ __forceinline__ void fsCopyTile(fs_bf16* tile, const fs_bf16* __restrict__ src, int ld,
                                           int row0, int col0, int rowLimit, int colLimit,
                                           bool aligned) {
    const int r0 = static_cast<int>(threadIdx.x) / 8, c0 = static_cast<int>(threadIdx.x) % 8 * 8;
    const int col = col0 + c0;
#pragma unroll
    for (int j = 0; j < kRows / 32; ++j) {
        const int r = r0 + 32 * j;
        const bool rowValid = row0 + r < rowLimit;
        const fs_bf16* p = src + static_cast<long long>(row0 + r) * ld + col;
        fs_bf16* dst = tile + fsAt(r, c0);
        if (aligned) {
            const bool valid = rowValid && col < colLimit;
            fsCopy16(fsShared(dst), valid ? p : src, valid ? 16 : 0);
        } else {
#pragma unroll
            for (int e = 0; e < 8; ++e) dst[e] = rowValid && col + e < colLimit ? p[e] : fs_bf16(0);
        }
    }
}

template <bool kFull>
__device__ __forceinline__ void fsGateUpSilu(const fs_bf16* __restrict__ x,
                                             const fs_bf16* __restrict__ gate,
                                             const fs_bf16* __restrict__ up,
                                             fs_bf16* __restrict__ h, int M, int H, int I,
                                             bool aligned) {
    constexpr int kRowBytes = FS_BK * 2, kGroupBytes = 32 * kRowBytes;  // a copy pass: 32 rows
    constexpr int kGateAt = kXTile * 2, kUpAt = (kXTile + kWTile) * 2, kStageBytes = kStage * 2;
    extern __shared__ __align__(128) unsigned char smemBytes[];
    fs_bf16* smem = reinterpret_cast<fs_bf16*>(smemBytes);
    const unsigned smemBase = fsShared(smemBytes);
    const int m0 = static_cast<int>(blockIdx.x) * FS_TM, i0 = static_cast<int>(blockIdx.y) * FS_TI;
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int wm = warp / kWarpsI, wn = warp % kWarpsI;
    const int steps = (H + FS_BK - 1) / FS_BK;
    const int unit = static_cast<int>(threadIdx.x) % 8, r0 = static_cast<int>(threadIdx.x) / 8;
    const unsigned copyAt = static_cast<unsigned>(fsAt(r0, unit * 8) * 2);
    const long long rows32 = 32ll * H;
    const fs_bf16* xRow = x + static_cast<long long>(m0 + r0) * H + unit * 8;
    const long long weightRow = static_cast<long long>(i0 + r0) * H + unit * 8;
    unsigned offA[FS_BK / 16], offB[FS_BK / 16];
#pragma unroll
    for (int k = 0; k < FS_BK / 16; ++k) {
        offA[k] = static_cast<unsigned>(
            fsAt(wm * kWarpRows + lane % 8 + (lane / 8) % 2 * 8, k * 16 + lane / 16 * 8) * 2);
        offB[k] = static_cast<unsigned>(
            fsAt(wn * 16 + lane % 8 + lane / 16 * 8, k * 16 + (lane / 8) % 2 * 8) * 2);
    }
    int loadStep = 0, loadSlot = 0;
    const auto stageNext = [&] {
        if (loadStep < steps) {
            const int k0 = loadStep * FS_BK;
            if (kFull) {
                const unsigned a =
                    smemBase + static_cast<unsigned>(loadSlot * kStageBytes) + copyAt;
#pragma unroll
                for (int j = 0; j < FS_TM / 32; ++j)
                    fsCopy16(a + j * kGroupBytes, xRow + k0 + j * rows32, 16);
#pragma unroll
                for (int j = 0; j < FS_TI / 32; ++j) {
                    fsCopy16(a + kGateAt + j * kGroupBytes, gate + weightRow + k0 + j * rows32, 16);
                    fsCopy16(a + kUpAt + j * kGroupBytes, up + weightRow + k0 + j * rows32, 16);
                }
            } else {
                fs_bf16* xs = smem + loadSlot * kStage;
                fsCopyTile<FS_TM>(xs, x, H, m0, k0, M, H, aligned);
                fsCopyTile<FS_TI>(xs + kXTile, gate, H, i0, k0, I, H, aligned);
                fsCopyTile<FS_TI>(xs + kXTile + kWTile, up, H, i0, k0, I, H, aligned);
            }
            loadSlot = loadSlot + 1 == FS_STAGES ? 0 : loadSlot + 1;
        }
        ++loadStep;
        fsCommit();
    };
    float acc[2][kRowFragments][2][4] = {};  // [g or u][16-row tile][8-column tile][fragment]
    for (int s = 0; s < FS_STAGES - 1; ++s) stageNext();
    int slot = 0;
    for (int s = 0; s < steps; ++s) {
        fsWait<FS_STAGES - 2>();
        __syncthreads();  // step s is visible to all; step s - 1's stage is free again
        stageNext();
        const unsigned stage = smemBase + static_cast<unsigned>(slot * kStageBytes);
        slot = slot + 1 == FS_STAGES ? 0 : slot + 1;
#pragma unroll
        for (int k = 0; k < FS_BK / 16; ++k) {
            const unsigned a = stage + offA[k], b = stage + offB[k];
            unsigned af[kRowFragments][4], bg[4], bu[4];
#pragma unroll
            for (int i = 0; i < kRowFragments; ++i) fsLoadMatrices(af[i], a + i * 16 * kRowBytes);
            fsLoadMatrices(bg, b + kGateAt);
            fsLoadMatrices(bu, b + kUpAt);
#pragma unroll
            for (int i = 0; i < kRowFragments; ++i)
#pragma unroll
                for (int j = 0; j < 2; ++j) {
                    fsMma(acc[0][i][j], af[i], bg[2 * j], bg[2 * j + 1]);
                    fsMma(acc[1][i][j], af[i], bu[2 * j], bu[2 * j + 1]);
                }
        }
    }
    fsWait<0>();
    // C fragment: elements 0, 1 at (row lane / 4, columns 2 (lane % 4), +1); 2, 3 at row + 8.
    // A warp's 16 columns of a row come as packed pairs, lane q the pairs at 2q (j = 0) and
    // 8 + 2q (j = 1): stored that way each 32-byte sector takes two 16-byte halves, twice the
    // bytes of h in L2 write requests. Partner lanes (q, q ^ 1) swap one pair so that each lane
    // holds 4 adjacent columns (even q: 2q..2q+3, odd q: 2q+6..2q+9) and the quad's four 8-byte
    // stores write the row's whole sector at once.
    const bool pairs = I % 2 == 0;
    const bool odd = (lane & 1) != 0;
    const int column16 = i0 + wn * 16;
    // 8-byte stores need rows that start on 8 bytes; the warp decides as one.
    const bool whole = I % 4 == 0 && column16 + 16 <= I;
#pragma unroll
    for (int i = 0; i < kRowFragments; ++i)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int row = m0 + wm * kWarpRows + i * 16 + lane / 4 + half * 8;
            const float a0 = fsSilu(acc[0][i][0][2 * half]) * acc[1][i][0][2 * half];
            const float a1 = fsSilu(acc[0][i][0][2 * half + 1]) * acc[1][i][0][2 * half + 1];
            const float b0 = fsSilu(acc[0][i][1][2 * half]) * acc[1][i][1][2 * half];
            const float b1 = fsSilu(acc[0][i][1][2 * half + 1]) * acc[1][i][1][2 * half + 1];
            const unsigned first = fsPack(a0, a1), second = fsPack(b0, b1);
            // Every lane takes part in the exchange, whatever its row.
            const unsigned partner = __shfl_xor_sync(0xffffffffu, odd ? first : second, 1);
            if (row >= M) continue;
            fs_bf16* rowOut = h + static_cast<long long>(row) * I;
            if (whole) {
                const int col = column16 + lane % 4 * 2 + (odd ? 6 : 0);
                *reinterpret_cast<uint2*>(rowOut + col) =
                    odd ? make_uint2(partner, second) : make_uint2(first, partner);
                continue;
            }
            // At the edges (the last columns of I, or rows not on 8 bytes): pair by pair.
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                const int col = column16 + j * 8 + lane % 4 * 2;
                if (col >= I) continue;
                fs_bf16* dst = rowOut + col;
                if (pairs) {
                    *reinterpret_cast<unsigned*>(dst) = j == 0 ? first : second;
                } else {
                    dst[0] = fsFromFloat(j == 0 ? a0 : b0);
                    if (col + 1 < I) dst[1] = fsFromFloat(j == 0 ? a1 : b1);
                }
            }
        }
}

extern "C" __global__ void __launch_bounds__(FS_THREADS, FS_MIN_BLOCKS)
    mlp_gate_up_silu_tiled_full(const fs_bf16* __restrict__ x, const fs_bf16* __restrict__ gate,
                                const fs_bf16* __restrict__ up, fs_bf16* __restrict__ h, int M,
                                int H, int I, bool aligned) {
    fsGateUpSilu<true>(x, gate, up, h, M, H, I, aligned);
}

extern "C" __global__ void __launch_bounds__(FS_THREADS, FS_MIN_BLOCKS)
    mlp_gate_up_silu_tiled_edge(const fs_bf16* __restrict__ x, const fs_bf16* __restrict__ gate,
                                const fs_bf16* __restrict__ up, fs_bf16* __restrict__ h, int M,
                                int H, int I, bool aligned) {
    fsGateUpSilu<false>(x, gate, up, h, M, H, I, aligned);
}
