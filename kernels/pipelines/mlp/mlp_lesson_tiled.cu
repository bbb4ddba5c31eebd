// The lesson's fused SwiGLU MLP kernel for any allowed tiles, compiled at run time by NVRTC
// (embedded in the program; see mlp_lesson_tiled.h). Its structure is the lesson's, as in
// mlp_lesson_fused.cu: a grid of M tiles x output-column tiles; per I chunk of FS_BI, g and u
// tiles accumulated over all of H in FS_BH steps, SiLU*up in registers, then that hidden tile
// times down's chunk accumulated into the block's FS_BM x FS_BN output tile. Gate and up are
// therefore re-read for every output-column tile.
//
// Self-contained on purpose: NVRTC 13 has no built-in cuda_bf16.h, so bfloat16 is stored as
// unsigned short and converted with the PTX cvt instructions. Compiled with -DFS_BM, -DFS_BN,
// -DFS_BH, -DFS_BI, -DFS_BF16 (1: bfloat16 on the tensor cores), -DFS_TF32 (1: float32 storage
// with TF32 products on the tensor cores; both 0: float32 on the CUDA cores, no TF32) and
// -DFS_STAGES (the tensor-core kernels' copy ring's slots) and -DFS_AHEAD (how many steps ahead
// of the products the copies run, at most FS_STAGES - 1) and -DFS_WARPS (warps a block: 4,
// as Triton's default num_warps, or 8 where one block a multiprocessor would leave each
// sub-partition's tensor core fed by a single warp's mma.sync chain), -DFS_HIDDEN_IN_SLOT (1: the
// mma.sync kernel's hidden tile in a ring slot, lessonTiledHiddenInSlot), -DFS_REFILL (which slot
// a step's copies refill, and when: LessonRefill), and -DFS_WGMMA=1 for
// sm_90a at BLOCK_M 64 or 128 in bfloat16 or TF32, where mlp_lesson_warpgroup.cuh multiplies with
// wgmma. Three entry points: _full for shapes that are whole tiles (no bounds checks in the
// copies), _rows where only M is not (x's rows checked: at decode M is one row of an M tile; at
// BLOCK_M 16 a block of at most 8 rows takes x as mma's 8-column operand), _edge for the rest.

#ifndef FS_WARPS
#define FS_WARPS 4
#endif
#define FS_THREADS (FS_WARPS * 32)
#ifdef FS_MIN_BLOCKS
#define FS_LAUNCH_BOUNDS __launch_bounds__(FS_THREADS, FS_MIN_BLOCKS)
#else
#define FS_LAUNCH_BOUNDS __launch_bounds__(FS_THREADS)
#endif
#ifndef FS_TF32
#define FS_TF32 0
#endif
#ifndef FS_WGMMA
#define FS_WGMMA 0
#endif
#ifndef FS_HIDDEN_IN_SLOT
#define FS_HIDDEN_IN_SLOT 0
#endif
#ifndef FS_REFILL
#define FS_REFILL 0
#endif

// fs_bf16, fsLessonSilu and the PTX wrappers: mlp_tiled_prelude.cuh, put in front of this text.

// What an entry point's copies check: nothing (every tile whole), x's rows only (H and I whole
// tiles), or every bound. The edge kernel's checked copies make its loop several times the whole
// one's code; at decode (M = 1) only x's tile is partial.
enum FsBounds : int { kFsWholeTiles, kFsRowsChecked, kFsAllChecked };
// The weights' copies: whole tiles unless every bound is checked.
template <int kBounds>
constexpr int kFsWeightChecks = kBounds == kFsAllChecked ? kFsAllChecked : kFsWholeTiles;

#if FS_BF16 || FS_TF32

// What both tensor-core kernels share (the copies are the prelude's): the warps' split of a tile
// into 16 x 16 blocks of mma results.

// The warps' split of a C tile of kRowsC x kColsC: a grid of kWm x kWn warps (as many column
// groups as there are, up to all the warps), each owning the 16-row groups wm, wm + kWm, ... and
// the column groups wn, wn + kWn, ...; warps whose row group lies beyond the tile idle. A column
// group is 16 columns (kHalves = 2 m16n8 accumulators), or 8 (kHalves = 1) where 16-column groups
// would leave warps idle that 8-column ones keep busy (at BLOCK_M 16, 32 columns left two warps
// of four idle, which Triton's layout does not): the A fragment is then read by more warps, but
// every warp issues mma. Each m16n8 accumulator is 4 floats, thread `lane` holding rows lane / 4 (+
// 8) and columns lane % 4 * 2 (+ 1).
template <int kRowsC, int kColsC>
struct WarpSplit {
    static constexpr int kRowGroups = kRowsC / 16;
    static constexpr int kWideWn =
        kColsC < 16 ? 1 : (kColsC / 16 < FS_WARPS ? kColsC / 16 : FS_WARPS);
    static constexpr bool kNarrow =
        kColsC < 16 || ((FS_WARPS / kWideWn > kRowGroups) && (kColsC / 8 > kWideWn));
    static constexpr int kGroupCols = kNarrow ? 8 : 16;
    static constexpr int kHalves = kGroupCols / 8;
    static constexpr int kColGroups = kColsC / kGroupCols;
    static constexpr int kWn = kColGroups < FS_WARPS ? kColGroups : FS_WARPS;
    static constexpr int kWm = FS_WARPS / kWn;
    static constexpr int kRowsPerWarp = (kRowGroups + kWm - 1) / kWm;
    static constexpr int kColsPerWarp = kColGroups / kWn;
};

template <int kAccumulators, typename Split>
__device__ __forceinline__ void fsZero(
    float (&c)[kAccumulators][Split::kRowsPerWarp][Split::kColsPerWarp][Split::kHalves][4]) {
#pragma unroll
    for (int m = 0; m < kAccumulators; ++m)
#pragma unroll
        for (int i = 0; i < Split::kRowsPerWarp; ++i)
#pragma unroll
            for (int j = 0; j < Split::kColsPerWarp; ++j)
#pragma unroll
                for (int h = 0; h < Split::kHalves; ++h)
#pragma unroll
                    for (int e = 0; e < 4; ++e) c[m][i][j][h][e] = 0.0f;
}

// A tile of kRows x kCols elements of kElementBytes in shared memory: rows of kCols *
// kElementBytes bytes whose 16-byte unit u is stored at u ^ f(r), so the 8 rows one ldmatrix
// reads at one column fall in 8 different bank groups whatever the row width (several narrow rows
// share one 128-byte line). Rows wider than 128 bytes are stored as 128-byte atoms, each 8-row
// group holding its first atoms (1 KiB), then its second, and so on: the layout Hopper's wgmma
// reads with a 128-byte swizzle (and narrower rows are its 32- and 64-byte swizzles), and still 8
// bank groups for ldmatrix.
template <int kCols, int kElementBytes = 2>
struct Swizzle {
    static constexpr int kRowBytes = kCols * kElementBytes;
    static constexpr int kUnits = kRowBytes / 16;
    __device__ __forceinline__ static int unitOf(int r, int u) {
        return kUnits >= 8 ? ((u & 7) ^ (r & 7)) : (u ^ ((r / (8 / kUnits)) & (kUnits - 1)));
    }
    __device__ __forceinline__ static int at(int r, int c) {
        const int b = c * kElementBytes;
        if (kUnits > 8)
            return (r >> 3) * 8 * kRowBytes + (b >> 7) * 1024 + (r & 7) * 128 +
                   unitOf(r, b >> 4) * 16 + (b & 15);
        return r * kRowBytes + unitOf(r, b >> 4) * 16 + (b & 15);
    }
};

// Swizzle<kCols, kElementBytes>'s layout, the byte of element (r, c). kInterleave: within each 8
// rows, rows 0-3 stored at 0, 2, 4, 6 and rows 4-7 at 1, 3, 5, 7, so that an m64nN result's
// columns 2t and 2t + 1 (one thread's pair) hold rows t and t + 4: the TF32 A fragment's k order
// (mlp_lesson_warpgroup.cuh).
template <int kCols, int kElementBytes, bool kInterleave>
struct SwizzledRows {
    __device__ __forceinline__ static int at(int r, int c) {
        const int stored = kInterleave ? (r & ~7) | ((r & 3) << 1) | ((r >> 2) & 1) : r;
        return Swizzle<kCols, kElementBytes>::at(stored, c);
    }
};

// Copies a whole tile, tile(r, c) = src[row0 + r][col0 + c] for kRows x kCols elements, element
// (r, c) at byte Layout::at(r, c) of `tile`, with as few instructions a unit as can be: where one
// block a multiprocessor runs (decode), a step's time is the instructions its warps issue, and the
// copies are most of them. Thread t copies unit t % kUnits of rows t / kUnits + kPass * p: one
// global address a tile, then one add and one cp.async a unit. Every layout repeats its pattern
// every 8 rows, so where kPass is a multiple of 8 unit p's shared address is unit 0's plus p
// times kPass rows (a constant); else (rows of 512 bytes) each is the layout's own. kCheckRows:
// rows from `rows` on are outside the matrix and zero-filled (cp.async reading no bytes), at the
// cost of one test a unit (x's tile at decode, where one row of 16 is real).
template <int kRows, int kCols, typename Layout, bool kCheckRows = false, typename Element>
__device__ __forceinline__ void fsCopyWholeTile(unsigned char* tile,
                                                const Element* __restrict__ src, int ld, int row0,
                                                int col0, int rows = kRows) {
    constexpr int kUnitElements = 16 / static_cast<int>(sizeof(Element));
    constexpr int kUnits = kCols / kUnitElements;
    constexpr int kPass = FS_THREADS / kUnits;
    static_assert(FS_THREADS % kUnits == 0, "a pass is whole rows");
    const int r = static_cast<int>(threadIdx.x) / kUnits,
              u = static_cast<int>(threadIdx.x) % kUnits;
    if (kRows < kPass && r >= kRows) return;
    const unsigned base = fsShared(tile);
    const unsigned to = base + static_cast<unsigned>(Layout::at(r, u * kUnitElements));
    const unsigned passBytes = static_cast<unsigned>(Layout::at(kPass, 0));
    const Element* from = src + static_cast<long long>(row0 + r) * ld + col0 + u * kUnitElements;
    const long long passElements = static_cast<long long>(ld) * kPass;
#pragma unroll
    for (int p = 0; p < (kRows + kPass - 1) / kPass; ++p) {
        const unsigned at =
            kPass % 8 == 0
                ? to + p * passBytes
                : base + static_cast<unsigned>(Layout::at(r + p * kPass, u * kUnitElements));
        if (kCheckRows) {
            const bool inside = r + p * kPass < rows;
            fsCopy16(at, inside ? from + p * passElements : src, inside ? 16 : 0);
        } else {
            fsCopy16(at, from + p * passElements, 16);
        }
    }
}

// Copies tile(r, c) = src[row0 + r][col0 + c] for a kRows x kCols tile of Element, element (r, c)
// at byte Layout::at(r, c) of `tile`; zero outside rowLimit x colLimit. kChecks (FsBounds):
// kFsWholeTiles, no checks; kFsRowsChecked, the columns are whole and rows whole 16-byte units,
// only rows are checked; kFsAllChecked, every bound. A tile inside the matrix takes the unchecked
// copy in the checked kernels too. `aligned`: rows are whole 16-byte units (cp.async with zero
// fill), else element by element.
template <int kRows, int kCols, int kChecks, typename Layout, typename Element>
__device__ __forceinline__ void fsCopyTile(unsigned char* tile, const Element* __restrict__ src,
                                           int ld, int row0, int col0, int rowLimit, int colLimit,
                                           bool aligned) {
    if (kChecks == kFsWholeTiles ||
        (aligned && row0 + kRows <= rowLimit && col0 + kCols <= colLimit)) {
        fsCopyWholeTile<kRows, kCols, Layout>(tile, src, ld, row0, col0);
        return;
    }
    if (kChecks == kFsRowsChecked) {
        fsCopyWholeTile<kRows, kCols, Layout, true>(tile, src, ld, row0, col0, rowLimit - row0);
        return;
    }
    constexpr int kUnitElements = 16 / static_cast<int>(sizeof(Element));
    constexpr int kUnits = kCols / kUnitElements;
    constexpr int kTotal = kRows * kUnits;
    const unsigned base = fsShared(tile);
#pragma unroll
    for (int it = 0; it < (kTotal + FS_THREADS - 1) / FS_THREADS; ++it) {
        const int p = static_cast<int>(threadIdx.x) + it * FS_THREADS;
        if (kTotal % FS_THREADS != 0 && p >= kTotal) break;
        const int r = p / kUnits, u = p % kUnits;
        const int row = row0 + r, col = col0 + u * kUnitElements;
        const int offset = Layout::at(r, u * kUnitElements);
        const Element* from = src + static_cast<long long>(row) * ld + col;
        if (aligned) {
            const bool valid = row < rowLimit && col < colLimit;
            fsCopy16(base + offset, valid ? from : src, valid ? 16 : 0);
        } else {
            Element* d = reinterpret_cast<Element*>(tile + offset);
#pragma unroll
            for (int e = 0; e < kUnitElements; ++e)
                d[e] = row < rowLimit && col + e < colLimit ? from[e] : Element(0);
        }
    }
}

// The staged tiles of the tensor-core kernels: Element in Swizzle<kCols, sizeof(Element)>'s
// layout, counted in bytes (unpadded, as Triton's, so that as many blocks share a
// multiprocessor). kInterleave: the gate and up tiles' rows interleaved (SwizzledRows), as the
// TF32 wgmma kernel needs them.
template <typename E, bool kInterleave>
struct FsSwizzledTiles {
    enum : bool { kInterleaveWeights = kInterleave };
    using Element = E;
    using Word = unsigned char;
    enum : int {
        kElementBytes = static_cast<int>(sizeof(E)),
        kUnitElements = 16 / kElementBytes,
        // The block's tiles in Words: x's, one weight's (gate or up) and down's.
        kXWords = FS_BM * FS_BH * kElementBytes,
        kWeightWords = FS_BI * FS_BH * kElementBytes,
        kDownWords = FS_BN * FS_BI * kElementBytes
    };
    template <int kCols>
    using Swizzled = Swizzle<kCols, kElementBytes>;

    // Copies a kRows x kCols tile of src from (row0, col0) into Swizzled<kCols>'s layout
    // (fsCopyTile, kChecks one of FsBounds).
    template <int kRows, int kCols, int kChecks, bool kInterleaveRows = false>
    __device__ __forceinline__ static void copyTile(unsigned char* tile, const E* __restrict__ src,
                                                    int ld, int row0, int col0, int rowLimit,
                                                    int colLimit, bool aligned) {
        fsCopyTile<kRows, kCols, kChecks, SwizzledRows<kCols, kElementBytes, kInterleaveRows>>(
            tile, src, ld, row0, col0, rowLimit, colLimit, aligned);
    }
};

// This warp's ldmatrix byte offsets in a swizzled tile of kK columns of kElementBytes (Swizzle),
// computed once a kernel: for the first (up to) four k steps of 32 bytes, A's at the warp's first
// row group (rows lane % 8 + (lane / 8) % 2 * 8, the step's second 16 bytes for lanes 16-31) and
// B's at its first column group (16 columns: rows lane % 8 + lane / 16 * 8, the second 16 bytes
// for lanes 8-15 and 24-31; 8 columns: rows lane % 8). The layout repeats them every 4 steps, one
// 1 KiB atom further, and every 16 rows (one row group) kK * kElementBytes * 16 bytes further, so
// every other address is one of these plus a constant: the per-step work is the tile's base.
template <typename Split, int kK, int kElementBytes>
struct FsFragmentOffsets {
    using Layout = Swizzle<kK, kElementBytes>;
    static constexpr int kStepElements = 32 / kElementBytes;
    static constexpr int kSteps = kK / kStepElements;
    static constexpr int kPhases = kSteps < 4 ? kSteps : 4;
    static constexpr int kRowGroupBytes = 16 * Layout::kRowBytes;
    unsigned a[kPhases], b[kPhases];

    __device__ __forceinline__ FsFragmentOffsets() {
        const int lane = static_cast<int>(threadIdx.x) % 32,
                  warp = static_cast<int>(threadIdx.x) / 32;
        const int wm = warp / Split::kWn, wn = warp % Split::kWn;
        constexpr int kHalf = kStepElements / 2;
        const int bRow = Split::kHalves == 2 ? lane % 8 + lane / 16 * 8 : lane % 8;
#pragma unroll
        for (int p = 0; p < kPhases; ++p) {
            a[p] = static_cast<unsigned>(Layout::at(wm * 16 + lane % 8 + (lane / 8) % 2 * 8,
                                                    p * kStepElements + lane / 16 * kHalf));
            b[p] = static_cast<unsigned>(Layout::at(wn * Split::kGroupCols + bRow,
                                                    p * kStepElements + (lane / 8) % 2 * kHalf));
        }
    }
    // The constant a k step adds: its atom (rows wider than 128 bytes).
    __device__ static constexpr unsigned step(int s) {
        return static_cast<unsigned>(s / 4 * 1024);
    }
    // Where this warp's ldmatrix reads k step s of a tile at `tile`: A for its i-th row group, B
    // for its j-th column group.
    __device__ __forceinline__ unsigned aAt(unsigned tile, int s, int i) const {
        return tile + a[s % 4] + step(s) + i * Split::kWm * kRowGroupBytes;
    }
    __device__ __forceinline__ unsigned bAt(unsigned tile, int s, int j) const {
        return tile + b[s % 4] + step(s) + j * Split::kWn * Split::kGroupCols * Layout::kRowBytes;
    }
};

// c(16 x 16 per (i, j), or 16 x 8) += A(rows, k) * B(cols, k)^T over kK, for the row and column
// groups of this warp, on swizzled tiles at shared-window addresses aTile and bTiles, whose
// fragments ldmatrix reads: per 32-byte k step (16 bfloat16 or 8 floats), one ldmatrix.x4 for A's
// 16 rows and one for 16 columns of B (.x2 for 8), then Mma::multiply per m16n8 accumulator.
template <typename Mma, typename Split, int kK, int kAccumulators, int kElementBytes>
__device__ __forceinline__ void fsLdmatrixProduct(
    float (&c)[kAccumulators][Split::kRowsPerWarp][Split::kColsPerWarp][Split::kHalves][4],
    unsigned aTile, const unsigned (&bTiles)[kAccumulators],
    const FsFragmentOffsets<Split, kK, kElementBytes>& f) {
    using F = FsFragmentOffsets<Split, kK, kElementBytes>;
    const int warp = static_cast<int>(threadIdx.x) / 32;
    const int wm = warp / Split::kWn;
#pragma unroll
    for (int s = 0; s < F::kSteps; ++s) {
        unsigned a[Split::kRowsPerWarp][4];
#pragma unroll
        for (int i = 0; i < Split::kRowsPerWarp; ++i)
            if (wm + Split::kWm * i < Split::kRowGroups) fsLoadMatrices(a[i], f.aAt(aTile, s, i));
#pragma unroll
        for (int m = 0; m < kAccumulators; ++m)
#pragma unroll
            for (int j = 0; j < Split::kColsPerWarp; ++j) {
                const unsigned bAt = f.bAt(bTiles[m], s, j);
                if constexpr (Split::kHalves == 2) {
                    unsigned b[4];
                    fsLoadMatrices(b, bAt);
#pragma unroll
                    for (int i = 0; i < Split::kRowsPerWarp; ++i)
                        if (wm + Split::kWm * i < Split::kRowGroups) {
                            Mma::multiply(c[m][i][j][0], a[i], b[0], b[1]);
                            Mma::multiply(c[m][i][j][1], a[i], b[2], b[3]);
                        }
                } else {
                    unsigned b[2];
                    fsLoadMatrixPair(b, bAt);
#pragma unroll
                    for (int i = 0; i < Split::kRowsPerWarp; ++i)
                        if (wm + Split::kWm * i < Split::kRowGroups)
                            Mma::multiply(c[m][i][j][0], a[i], b[0], b[1]);
                }
            }
    }
}

// As fsLdmatrixProduct, with one A tile per accumulator and B shared: c[m] += A_m(rows, k) *
// B(cols, k)^T. With the weights as A and at most 8 rows of x as B (8 columns), a k step costs
// half the mma of x as A, whose 16 rows are mostly zero at decode.
template <typename Mma, typename Split, int kK, int kAccumulators, int kElementBytes>
__device__ __forceinline__ void fsLdmatrixProductSharedB(
    float (&c)[kAccumulators][Split::kRowsPerWarp][Split::kColsPerWarp][Split::kHalves][4],
    const unsigned (&aTiles)[kAccumulators], unsigned bTile,
    const FsFragmentOffsets<Split, kK, kElementBytes>& f) {
    using F = FsFragmentOffsets<Split, kK, kElementBytes>;
    static_assert(Split::kHalves == 1 && Split::kColsPerWarp == 1, "B is one 8-column group");
    const int warp = static_cast<int>(threadIdx.x) / 32;
    const int wm = warp / Split::kWn;
#pragma unroll
    for (int s = 0; s < F::kSteps; ++s) {
        unsigned b[2];
        fsLoadMatrixPair(b, f.bAt(bTile, s, 0));
#pragma unroll
        for (int m = 0; m < kAccumulators; ++m)
#pragma unroll
            for (int i = 0; i < Split::kRowsPerWarp; ++i)
                if (wm + Split::kWm * i < Split::kRowGroups) {
                    unsigned a[4];
                    fsLoadMatrices(a, f.aAt(aTiles[m], s, i));
                    Mma::multiply(c[m][i][0][0], a, b[0], b[1]);
                }
    }
}

// As fsLdmatrixProduct, but every fragment of the step is read into registers first; then
// `between` runs (a barrier and the copies that refill this very slot), then the products. So a
// ring of S slots keeps S steps of copies in flight, not S - 1, as the lesson's Triton kernel does
// (its loop reads a step's tiles, passes a barrier, then issues the copies among its mma).
template <typename Mma, typename Split, int kK, int kAccumulators, int kElementBytes,
          typename Between>
__device__ __forceinline__ void fsLdmatrixProductHeld(
    float (&c)[kAccumulators][Split::kRowsPerWarp][Split::kColsPerWarp][Split::kHalves][4],
    unsigned aTile, const unsigned (&bTiles)[kAccumulators],
    const FsFragmentOffsets<Split, kK, kElementBytes>& f, Between between) {
    using F = FsFragmentOffsets<Split, kK, kElementBytes>;
    const int warp = static_cast<int>(threadIdx.x) / 32;
    const int wm = warp / Split::kWn;
    unsigned a[F::kSteps][Split::kRowsPerWarp][4];
    unsigned b[F::kSteps][kAccumulators][Split::kColsPerWarp][Split::kHalves][2];
#pragma unroll
    for (int s = 0; s < F::kSteps; ++s) {
#pragma unroll
        for (int i = 0; i < Split::kRowsPerWarp; ++i)
            if (wm + Split::kWm * i < Split::kRowGroups)
                fsLoadMatrices(a[s][i], f.aAt(aTile, s, i));
#pragma unroll
        for (int m = 0; m < kAccumulators; ++m)
#pragma unroll
            for (int j = 0; j < Split::kColsPerWarp; ++j) {
                if constexpr (Split::kHalves == 2) {
                    unsigned four[4];
                    fsLoadMatrices(four, f.bAt(bTiles[m], s, j));
                    b[s][m][j][0][0] = four[0];
                    b[s][m][j][0][1] = four[1];
                    b[s][m][j][1][0] = four[2];
                    b[s][m][j][1][1] = four[3];
                } else {
                    fsLoadMatrixPair(b[s][m][j][0], f.bAt(bTiles[m], s, j));
                }
            }
    }
    between();
#pragma unroll
    for (int s = 0; s < F::kSteps; ++s)
#pragma unroll
        for (int m = 0; m < kAccumulators; ++m)
#pragma unroll
            for (int j = 0; j < Split::kColsPerWarp; ++j)
#pragma unroll
                for (int i = 0; i < Split::kRowsPerWarp; ++i)
                    if (wm + Split::kWm * i < Split::kRowGroups)
#pragma unroll
                        for (int h = 0; h < Split::kHalves; ++h)
                            Mma::multiply(c[m][i][j][h], a[s][i], b[s][m][j][h][0],
                                          b[s][m][j][h][1]);
}

// fsLdmatrixProductSharedB with every fragment of the step read before `between`
// (fsLdmatrixProductHeld).
template <typename Mma, typename Split, int kK, int kAccumulators, int kElementBytes,
          typename Between>
__device__ __forceinline__ void fsLdmatrixProductSharedBHeld(
    float (&c)[kAccumulators][Split::kRowsPerWarp][Split::kColsPerWarp][Split::kHalves][4],
    const unsigned (&aTiles)[kAccumulators], unsigned bTile,
    const FsFragmentOffsets<Split, kK, kElementBytes>& f, Between between) {
    using F = FsFragmentOffsets<Split, kK, kElementBytes>;
    static_assert(Split::kHalves == 1 && Split::kColsPerWarp == 1, "B is one 8-column group");
    const int warp = static_cast<int>(threadIdx.x) / 32;
    const int wm = warp / Split::kWn;
    unsigned b[F::kSteps][2];
    unsigned a[F::kSteps][kAccumulators][Split::kRowsPerWarp][4];
#pragma unroll
    for (int s = 0; s < F::kSteps; ++s) {
        fsLoadMatrixPair(b[s], f.bAt(bTile, s, 0));
#pragma unroll
        for (int m = 0; m < kAccumulators; ++m)
#pragma unroll
            for (int i = 0; i < Split::kRowsPerWarp; ++i)
                if (wm + Split::kWm * i < Split::kRowGroups)
                    fsLoadMatrices(a[s][m][i], f.aAt(aTiles[m], s, i));
    }
    between();
#pragma unroll
    for (int s = 0; s < F::kSteps; ++s)
#pragma unroll
        for (int m = 0; m < kAccumulators; ++m)
#pragma unroll
            for (int i = 0; i < Split::kRowsPerWarp; ++i)
                if (wm + Split::kWm * i < Split::kRowGroups)
                    Mma::multiply(c[m][i][0][0], a[s][m][i], b[s][0], b[s][1]);
}

#endif

#if FS_BF16

// The tensor-core kernel's math in bfloat16 (fsLessonTensorCores says what each member is for):
// shared memory counted in bytes, tiles swizzled and read by ldmatrix from their shared-window
// addresses, mma.m16n8k16.
struct FsBf16Math : FsSwizzledTiles<fs_bf16, false> {
    enum : bool { kBfloat16 = true };
    // mma.m16n8k16 on bfloat16 fragments.
    struct Mma {
        __device__ __forceinline__ static void multiply(float (&c)[4], const unsigned (&a)[4],
                                                        unsigned b0, unsigned b1) {
            fsMma(c, a, b0, b1);
        }
    };
};
using FsMath = FsBf16Math;
#define FS_SHARED smem

#elif FS_TF32  // float32 storage, TF32 products on the tensor cores, float32 accumulation

// A float32 operand goes to a TF32 mma as its bits: the tensor cores use its top 19 bits (a 10-bit
// mantissa, the rest dropped), as they do for Triton's tl.dot, which takes float32 inputs as TF32
// by default. So the result is Triton's (relative error 2.2e-3 at the classroom shape on the
// H200, Triton's 2.1e-3), without the cvt.rna a rounded operand cost per element (7% of the time
// at BLOCK_M 16).
__device__ __forceinline__ unsigned fsTf32(float v) {
    return __float_as_uint(v);
}
__device__ __forceinline__ void fsMmaTf32(float (&c)[4], const unsigned (&a)[4], unsigned b0,
                                          unsigned b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// The tensor-core kernel's math in TF32 (fsLessonTensorCores says what each member is for):
// float tiles swizzled and read by ldmatrix as bfloat16's are (an 8 x 8 matrix of 16-bit elements
// is 8 rows of 4 floats, and thread lane receives float lane % 4 of row lane / 4: an m16n8k8 TF32
// fragment's element), mma.m16n8k8.
struct FsTf32Math : FsSwizzledTiles<float, false> {
    enum : bool { kBfloat16 = false };
    // mma.m16n8k8 on TF32 fragments.
    struct Mma {
        __device__ __forceinline__ static void multiply(float (&c)[4], const unsigned (&a)[4],
                                                        unsigned b0, unsigned b1) {
            fsMmaTf32(c, a, b0, b1);
        }
    };
};
using FsMath = FsTf32Math;
#define FS_SHARED smemBytes

#endif

#if FS_BF16 || FS_TF32

// The copies of x's, gate's and up's tiles into a ring of FS_STAGES slots, one cp.async group a
// step, in the order the products use them (each I chunk's H steps in turn); both tensor-core
// kernels stage FS_AHEAD steps ahead of their products.
template <typename Math, int kBounds>
struct FsCopyRing {
    using Element = typename Math::Element;
    using Word = typename Math::Word;
    const Element* __restrict__ x;
    const Element* __restrict__ gate;
    const Element* __restrict__ up;
    Word* shared;
    int m0, M, H, I, stepsH, chunks;
    bool alignedH;
    int chunk = 0, step = 0, slot = 0;

    // Copies the next step's tiles, if any are left, and commits a group (possibly empty: one
    // group per step keeps the count simple).
    __device__ __forceinline__ void next() {
        constexpr int BM = FS_BM, BH = FS_BH, BI = FS_BI, kStages = FS_STAGES;
        constexpr int kX = Math::kXWords, kW = Math::kWeightWords, kStage = kX + 2 * kW;
        if (chunk < chunks) {
            const int i0 = chunk * BI, k0 = step * BH;
            Word* stage = shared + slot * kStage;
            constexpr int kWeights = kFsWeightChecks<kBounds>;
            Math::template copyTile<BM, BH, kBounds>(stage, x, H, m0, k0, M, H, alignedH);
            constexpr bool kInterleave = Math::kInterleaveWeights;
            Math::template copyTile<BI, BH, kWeights, kInterleave>(stage + kX, gate, H, i0, k0, I,
                                                                   H, alignedH);
            Math::template copyTile<BI, BH, kWeights, kInterleave>(stage + kX + kW, up, H, i0, k0,
                                                                   I, H, alignedH);
            slot = slot + 1 == kStages ? 0 : slot + 1;
            if (++step == stepsH) {
                step = 0;
                ++chunk;
            }
        }
        fsCommit();
    }
};

// The tensor-core kernel, whatever the math (FsBf16Math or FsTf32Math):
// - Element: what x, the weights and out hold in global memory.
// - Word: the unit the shared-memory layout counts in (bytes); kXWords, kWeightWords,
//   kDownWords: the staged tiles' sizes in Words; Swizzled<kCols>: a tile's layout;
//   kUnitElements: elements per 16-byte cp.async unit; copyTile stages a tile; kElementBytes and
//   Mma: what fsLdmatrixProduct reads and multiplies.
// - kBfloat16: the hidden tile and out are bfloat16; otherwise float32 (the hidden tile read as
//   TF32 by the down product).
// The block stages x, gate and up tiles FS_AHEAD steps ahead through a ring of cp.async groups.
// Down's tile has one buffer, not a ring: it is copied at a chunk's first step, once the barrier
// there has ended the previous chunk's down product, with that step's group, which is complete
// by the chunk's last step when a chunk has more than FS_AHEAD steps (else the chunk waits for all
// copies before its down product). The shared memory saved lets more blocks share a
// multiprocessor. FS_SHARED names the dynamic shared memory, as each kernel's PTX always has.
// kNarrowX: this block has at most 8 of x's rows (decode), so gate's and up's products take the
// weights as mma's A and x's rows as an 8-column B (fsLdmatrixProductSharedB); h is the same.
template <typename Math, int kBounds, bool kNarrowX = false>
__device__ __forceinline__ void fsLessonTensorCores(const typename Math::Element* __restrict__ x,
                                                    const typename Math::Element* __restrict__ gate,
                                                    const typename Math::Element* __restrict__ up,
                                                    const typename Math::Element* __restrict__ down,
                                                    typename Math::Element* __restrict__ out, int M,
                                                    int H, int I) {
    using Word = typename Math::Word;
    constexpr int BM = FS_BM, BN = FS_BN, BH = FS_BH, BI = FS_BI, kStages = FS_STAGES;
    // Told the block's size, the compiler drops the tests for row groups no warp can have.
    __builtin_assume(threadIdx.x < FS_THREADS);
    // In Words:
    constexpr int kX = Math::kXWords, kW = Math::kWeightWords;
    constexpr int kStage = kX + 2 * kW;
    constexpr int kDown = Math::kDownWords;
    constexpr int kDownAt = kStages * kStage;
    // The hidden tile goes into the slot the chunk's last step has just read, where the host says
    // it fits (FS_HIDDEN_IN_SLOT, lessonTiledHiddenInSlot): no copy refills that slot before the
    // next step's barrier, which comes after the down product. The shared memory saved buys a
    // third stage or a second block an SM.
    constexpr bool kHiddenInSlot = FS_HIDDEN_IN_SLOT;
    static_assert(!kHiddenInSlot || BM * BI * Math::kElementBytes <= kStage,
                  "the hidden tile fits a slot");
    constexpr int kHiddenAfterDown = kDownAt + kDown;
    using GateUp = WarpSplit<kNarrowX ? BI : BM, kNarrowX ? 8 : BI>;
    using Down = WarpSplit<BM, BN>;
    extern __shared__ __align__(128) unsigned char FS_SHARED[];
    Word* shared = reinterpret_cast<Word*>(FS_SHARED);
    const unsigned sharedWindow = fsShared(shared);
    const int m0 = static_cast<int>(blockIdx.x) * BM, n0 = static_cast<int>(blockIdx.y) * BN;
    const int stepsH = (H + BH - 1) / BH, chunks = (I + BI - 1) / BI;
    const bool alignedH = H % Math::kUnitElements == 0, alignedI = I % Math::kUnitElements == 0;

    FsCopyRing<Math, kBounds> ring{x, gate, up, shared, m0, M, H, I, stepsH, chunks, alignedH};

    float gu[2][GateUp::kRowsPerWarp][GateUp::kColsPerWarp][GateUp::kHalves][4];
    float o[1][Down::kRowsPerWarp][Down::kColsPerWarp][Down::kHalves][4];
    fsZero<2, GateUp>(gu);
    fsZero<1, Down>(o);
    const FsFragmentOffsets<GateUp, BH, Math::kElementBytes> gateUpOffsets;
    const FsFragmentOffsets<Down, BI, Math::kElementBytes> downOffsets;
    // The products read shared memory synchronously (ldmatrix). FS_REFILL (LessonRefill on the
    // host): 0, a step's copies refill the previous step's slot once every warp has passed this
    // step's barrier; 1, every warp reads the step's fragments into registers, then after a
    // barrier the copies refill this step's slot (fsLdmatrixProductHeld); 2, they refill it after
    // the step's products and a barrier. With 1 or 2 the copies run as many steps ahead as there
    // are slots, and the hidden tile has shared memory of its own.
    constexpr int kRefill = FS_REFILL;
    constexpr bool kStepInRegisters = kRefill == 1;
    static_assert(kRefill == 0 || !kHiddenInSlot, "a read step's slot is refilled at once");
    constexpr int kAhead = FS_AHEAD;
    static_assert(
        kAhead >= 1 && kAhead <= kStages - (kRefill != 0 ? 0 : 1),
        "the copies run 1 to kStages - 1 ahead, or kStages where a step refills its own slot");
    for (int s = 0; s < kAhead; ++s) ring.next();
    const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
    int slot = 0, step = 0, chunk = 0;
    const int steps = chunks * stepsH;
    for (int t = 0; t < steps; ++t) {
        fsWait<kAhead - 1>();
        __syncthreads();  // this step is visible to all; the previous step's stage is free
        if (step == 0)    // and the previous chunk's down product is over
            Math::template copyTile<BN, BI, kFsWeightChecks<kBounds>>(shared + kDownAt, down, I, n0,
                                                                      chunk * BI, H, I, alignedI);
        if constexpr (kRefill == 0) ring.next();
        const unsigned stage = sharedWindow + static_cast<unsigned>(slot * kStage);
        const unsigned weights[2] = {stage + kX, stage + kX + kW};
        if constexpr (kStepInRegisters) {
            const auto refill = [&ring] {
                __syncthreads();  // every warp holds this step's fragments
                ring.next();
            };
            if constexpr (kNarrowX)
                fsLdmatrixProductSharedBHeld<typename Math::Mma>(gu, weights, stage, gateUpOffsets,
                                                                 refill);
            else
                fsLdmatrixProductHeld<typename Math::Mma>(gu, stage, weights, gateUpOffsets,
                                                          refill);
        } else if constexpr (kNarrowX) {
            fsLdmatrixProductSharedB<typename Math::Mma>(gu, weights, stage, gateUpOffsets);
        } else {
            fsLdmatrixProduct<typename Math::Mma>(gu, stage, weights, gateUpOffsets);
        }
        if constexpr (kRefill == 2) {
            __syncthreads();  // every warp is done with this step's slot
            ring.next();
        }
        const int hiddenAt = kHiddenInSlot ? slot * kStage : kHiddenAfterDown;
        slot = slot + 1 == kStages ? 0 : slot + 1;
        if (++step == stepsH) {
            step = 0;
            if constexpr (kHiddenInSlot) __syncthreads();  // every warp is done with the slot
            // hidden = silu(g) * u, in bfloat16 (the lesson's h.to(down's dtype)) or in float32
            // (read as TF32 by the down product); zero beyond I and M, since g and u
            // are (zero-filled tiles).
            Word* hidden = shared + hiddenAt;
            const int wm = warp / GateUp::kWn, wn = warp % GateUp::kWn;
            if constexpr (kNarrowX) {
                // c's rows are I and its 8 columns x's rows: h(x row, I) one element at a time,
                // and h's rows 8-15 zero, as x's rows there are.
#pragma unroll
                for (int i = 0; i < GateUp::kRowsPerWarp; ++i)
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const int rg = wm + GateUp::kWm * i;
                        if (rg >= GateUp::kRowGroups) continue;
                        const int c = rg * 16 + lane / 4 + e / 2 * 8;
                        const int r = lane % 4 * 2 + e % 2;
                        const float v = fsLessonSilu(gu[0][i][0][0][e]) * gu[1][i][0][0][e];
                        using Stored = typename Math::Element;
                        Stored* at = reinterpret_cast<Stored*>(
                            hidden + Math::template Swizzled<BI>::at(r, c));
                        Stored* zeroAt = reinterpret_cast<Stored*>(
                            hidden + Math::template Swizzled<BI>::at(r + 8, c));
                        if constexpr (Math::kBfloat16) {
                            *at = fsFromFloat(v);
                            *zeroAt = fsFromFloat(0.0f);
                        } else {
                            *at = v;
                            *zeroAt = 0.0f;
                        }
                    }
            } else {
#pragma unroll
                for (int i = 0; i < GateUp::kRowsPerWarp; ++i)
#pragma unroll
                    for (int j = 0; j < GateUp::kColsPerWarp; ++j)
#pragma unroll
                        for (int h = 0; h < GateUp::kHalves; ++h)
#pragma unroll
                            for (int half = 0; half < 2; ++half) {
                                const int rg = wm + GateUp::kWm * i;
                                if (rg >= GateUp::kRowGroups) continue;
                                const int r = rg * 16 + lane / 4 + half * 8;
                                const int c = (wn + GateUp::kWn * j) * GateUp::kGroupCols + h * 8 +
                                              lane % 4 * 2;
                                const float* g = gu[0][i][j][h];
                                const float* u = gu[1][i][j][h];
                                if constexpr (Math::kBfloat16) {
                                    *reinterpret_cast<unsigned*>(
                                        hidden + Math::template Swizzled<BI>::at(r, c)) =
                                        fsPack(fsLessonSilu(g[2 * half]) * u[2 * half],
                                               fsLessonSilu(g[2 * half + 1]) * u[2 * half + 1]);
                                } else {
                                    *reinterpret_cast<float2*>(
                                        hidden + Math::template Swizzled<BI>::at(r, c)) =
                                        make_float2(
                                            fsLessonSilu(g[2 * half]) * u[2 * half],
                                            fsLessonSilu(g[2 * half + 1]) * u[2 * half + 1]);
                                }
                            }
            }
            if (stepsH <= kAhead) fsWait<0>();  // down's tile may be in a group still in flight
            __syncthreads();
            const unsigned downTile[1] = {sharedWindow + static_cast<unsigned>(kDownAt)};
            fsLdmatrixProduct<typename Math::Mma>(o, sharedWindow + static_cast<unsigned>(hiddenAt),
                                                  downTile, downOffsets);
            ++chunk;
            fsZero<2, GateUp>(gu);
        }
    }
    fsWait<0>();
    const int wm = warp / Down::kWn, wn = warp % Down::kWn;
#pragma unroll
    for (int i = 0; i < Down::kRowsPerWarp; ++i)
#pragma unroll
        for (int j = 0; j < Down::kColsPerWarp; ++j)
#pragma unroll
            for (int h = 0; h < Down::kHalves; ++h)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int rg = wm + Down::kWm * i;
                    const int r = m0 + rg * 16 + lane / 4 + e / 2 * 8;
                    const int c =
                        n0 + (wn + Down::kWn * j) * Down::kGroupCols + h * 8 + lane % 4 * 2 + e % 2;
                    if (rg < Down::kRowGroups && r < M && c < H) {
                        if constexpr (Math::kBfloat16)
                            out[static_cast<long long>(r) * H + c] = fsFromFloat(o[0][i][j][h][e]);
                        else
                            out[static_cast<long long>(r) * H + c] = o[0][i][j][h][e];
                    }
                }
}

#if FS_WGMMA
// The same kernel multiplied with Hopper's warpgroup MMA: mlp_lesson_warpgroup.cuh, which CMake
// puts after this text.
template <int kBounds>
__device__ __forceinline__ void fsLessonWarpgroups(const FsMath::Element* __restrict__ x,
                                                   const FsMath::Element* __restrict__ gate,
                                                   const FsMath::Element* __restrict__ up,
                                                   const FsMath::Element* __restrict__ down,
                                                   FsMath::Element* __restrict__ out, int M, int H,
                                                   int I);
#define FS_LESSON_BODY(kBounds) fsLessonWarpgroups<kBounds>
#else
#define FS_LESSON_BODY(kBounds) fsLessonTensorCores<FsMath, kBounds>
#endif

extern "C" __global__ void FS_LAUNCH_BOUNDS swiglu_mlp_lesson_tiled_full(
    const FsMath::Element* __restrict__ x, const FsMath::Element* __restrict__ gate,
    const FsMath::Element* __restrict__ up, const FsMath::Element* __restrict__ down,
    FsMath::Element* __restrict__ out, int M, int H, int I) {
    FS_LESSON_BODY(kFsWholeTiles)(x, gate, up, down, out, M, H, I);
}

extern "C" __global__ void FS_LAUNCH_BOUNDS swiglu_mlp_lesson_tiled_rows(
    const FsMath::Element* __restrict__ x, const FsMath::Element* __restrict__ gate,
    const FsMath::Element* __restrict__ up, const FsMath::Element* __restrict__ down,
    FsMath::Element* __restrict__ out, int M, int H, int I) {
#if FS_BM == 16  // a block of at most 8 rows (decode) multiplies x as mma's narrow operand
    if (M - static_cast<int>(blockIdx.x) * FS_BM <= 8) {
        fsLessonTensorCores<FsMath, kFsRowsChecked, true>(x, gate, up, down, out, M, H, I);
        return;
    }
#endif
    FS_LESSON_BODY(kFsRowsChecked)(x, gate, up, down, out, M, H, I);
}

extern "C" __global__ void FS_LAUNCH_BOUNDS swiglu_mlp_lesson_tiled_edge(
    const FsMath::Element* __restrict__ x, const FsMath::Element* __restrict__ gate,
    const FsMath::Element* __restrict__ up, const FsMath::Element* __restrict__ down,
    FsMath::Element* __restrict__ out, int M, int H, int I) {
    FS_LESSON_BODY(kFsAllChecked)(x, gate, up, down, out, M, H, I);
}

#else  // float32: plain FMAs on the CUDA cores (no TF32), one shared-memory stage

#if FS_WARPS != 4
#error "the float32 kernel's thread layout is 16 x 8 threads: four warps"
#endif

// Thread (ty, tx) = (thread / 16, thread % 16) owns rows ty + 8 i and columns tx + 16 j of each
// tile; shared rows are padded by one word, so a column walk hits 32 different banks.
template <int kRows, int kCols>
__device__ __forceinline__ void fsLoadTile(float* tile, const float* __restrict__ src, int ld,
                                           int row0, int col0, int rowLimit, int colLimit) {
    for (int p = static_cast<int>(threadIdx.x); p < kRows * kCols; p += FS_THREADS) {
        const int r = p / kCols, c = p % kCols;
        const int row = row0 + r, col = col0 + c;
        tile[r * (kCols + 1) + c] =
            row < rowLimit && col < colLimit ? src[static_cast<long long>(row) * ld + col] : 0.0f;
    }
}

__device__ __forceinline__ void fsLessonFloat(const float* __restrict__ x,
                                              const float* __restrict__ gate,
                                              const float* __restrict__ up,
                                              const float* __restrict__ down,
                                              float* __restrict__ out, int M, int H, int I) {
    constexpr int BM = FS_BM, BN = FS_BN, BH = FS_BH, BI = FS_BI;
    constexpr int kR = BM / 8, kCI = BI / 16, kCN = BN / 16;
    extern __shared__ __align__(128) unsigned char smem[];
    float* xs = reinterpret_cast<float*>(smem);
    float* gs = xs + BM * (BH + 1);
    float* us = gs + BI * (BH + 1);
    float* ds = us + BI * (BH + 1);
    float* hs = ds + BN * (BI + 1);
    const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
    const int m0 = static_cast<int>(blockIdx.x) * BM, n0 = static_cast<int>(blockIdx.y) * BN;
    float o[kR][kCN];
#pragma unroll
    for (int i = 0; i < kR; ++i)
#pragma unroll
        for (int j = 0; j < kCN; ++j) o[i][j] = 0.0f;
    for (int i0 = 0; i0 < I; i0 += BI) {
        float g[kR][kCI], u[kR][kCI];
#pragma unroll
        for (int i = 0; i < kR; ++i)
#pragma unroll
            for (int j = 0; j < kCI; ++j) g[i][j] = u[i][j] = 0.0f;
        for (int k0 = 0; k0 < H; k0 += BH) {
            fsLoadTile<BM, BH>(xs, x, H, m0, k0, M, H);
            fsLoadTile<BI, BH>(gs, gate, H, i0, k0, I, H);
            fsLoadTile<BI, BH>(us, up, H, i0, k0, I, H);
            __syncthreads();
#pragma unroll 4
            for (int k = 0; k < BH; ++k) {
                float a[kR];
#pragma unroll
                for (int i = 0; i < kR; ++i) a[i] = xs[(ty + 8 * i) * (BH + 1) + k];
#pragma unroll
                for (int j = 0; j < kCI; ++j) {
                    const float bg = gs[(tx + 16 * j) * (BH + 1) + k];
                    const float bu = us[(tx + 16 * j) * (BH + 1) + k];
#pragma unroll
                    for (int i = 0; i < kR; ++i) {
                        g[i][j] = fmaf(a[i], bg, g[i][j]);
                        u[i][j] = fmaf(a[i], bu, u[i][j]);
                    }
                }
            }
            __syncthreads();
        }
#pragma unroll
        for (int i = 0; i < kR; ++i)
#pragma unroll
            for (int j = 0; j < kCI; ++j)
                hs[(ty + 8 * i) * (BI + 1) + tx + 16 * j] = fsLessonSilu(g[i][j]) * u[i][j];
        fsLoadTile<BN, BI>(ds, down, I, n0, i0, H, I);
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < BI; ++k) {
            float a[kR];
#pragma unroll
            for (int i = 0; i < kR; ++i) a[i] = hs[(ty + 8 * i) * (BI + 1) + k];
#pragma unroll
            for (int j = 0; j < kCN; ++j) {
                const float b = ds[(tx + 16 * j) * (BI + 1) + k];
#pragma unroll
                for (int i = 0; i < kR; ++i) o[i][j] = fmaf(a[i], b, o[i][j]);
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < kR; ++i)
#pragma unroll
        for (int j = 0; j < kCN; ++j) {
            const int r = m0 + ty + 8 * i, c = n0 + tx + 16 * j;
            if (r < M && c < H) out[static_cast<long long>(r) * H + c] = o[i][j];
        }
}

extern "C" __global__ void FS_LAUNCH_BOUNDS swiglu_mlp_lesson_tiled_full(
    const float* __restrict__ x, const float* __restrict__ gate, const float* __restrict__ up,
    const float* __restrict__ down, float* __restrict__ out, int M, int H, int I) {
    fsLessonFloat(x, gate, up, down, out, M, H, I);
}

extern "C" __global__ void FS_LAUNCH_BOUNDS swiglu_mlp_lesson_tiled_rows(
    const float* __restrict__ x, const float* __restrict__ gate, const float* __restrict__ up,
    const float* __restrict__ down, float* __restrict__ out, int M, int H, int I) {
    fsLessonFloat(x, gate, up, down, out, M, H, I);
}

extern "C" __global__ void FS_LAUNCH_BOUNDS swiglu_mlp_lesson_tiled_edge(
    const float* __restrict__ x, const float* __restrict__ gate, const float* __restrict__ up,
    const float* __restrict__ down, float* __restrict__ out, int M, int H, int I) {
    fsLessonFloat(x, gate, up, down, out, M, H, I);
}

#endif
