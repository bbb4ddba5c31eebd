// The lesson kernel at BLOCK_M of 64 or 128 in bfloat16 or TF32 on Hopper (sm_90a): the
// structure, the copies and the shared-memory tiles of mlp_lesson_tiled.cu's tensor-core kernel,
// multiplied with the warpgroup MMA (wgmma) instead of mma.sync, as the lesson's Triton kernel
// does at these tiles. One warpgroup (4 warps) per 64 rows of the M tile, or two at BLOCK_M 64
// where one would hold 128 or more accumulators a thread (each then takes half the columns of g
// and u). Each multiplies its 64 rows of x by its rows of the gate and up tiles (both operands in
// shared memory), keeps its part of the hidden tile in registers as the A operand of the down
// product (as the lesson's Triton kernel does), and multiplies it by the matching columns of
// down's tile; two warpgroups of one row group add their output tiles at the end. Swizzle is the
// layout wgmma reads with a 32-, 64- or 128-byte swizzle (rows of 32, 64, 128 bytes; wider rows
// as 128-byte atoms side by side per 8-row group), once the tiles start on 1 KiB; one wgmma reads
// 32 bytes of each row (16 bfloat16 or 8 TF32 values). TF32 tiles are float32 in memory: wgmma
// reads them as TF32, as Triton's tl.dot does with float32 inputs. Put after mlp_lesson_tiled.cu
// by CMake; compiled with -DFS_WGMMA=1 for sm_90a only.

#if FS_WGMMA

#if !(FS_BF16 || FS_TF32) || FS_BM % 64 != 0 || \
    (FS_WARPS != FS_BM / 16 && FS_WARPS != 2 * FS_BM / 16)
#error \
    "the warpgroup kernel is bfloat16 or TF32 at BLOCK_M 64 or 128, with one or two warpgroups per 64 rows"
#endif

// A shared-memory matrix descriptor of a K-major tile in Swizzle's layout for rows of kRowBytes,
// starting at `address` (a row group's first row, at a k offset inside the row): 8-row groups 8
// rows apart, the swizzle that matches the row width.
template <int kRowBytes>
__device__ __forceinline__ unsigned long long fsDescriptor(unsigned address) {
    constexpr unsigned long long kSwizzle = kRowBytes >= 128 ? 1 : kRowBytes == 64 ? 2 : 3;
    constexpr unsigned long long kGroupBytes = 8 * kRowBytes;
    return static_cast<unsigned long long>((address & 0x3FFFF) >> 4) | (1ull << 16) |
           ((kGroupBytes >> 4) << 32) | (kSwizzle << 62);
}

__device__ __forceinline__ void fsWarpgroupFence() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void fsWarpgroupCommit() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Waits until at most kPending committed groups of this warpgroup's wgmma are in flight.
template <int kPending>
__device__ __forceinline__ void fsWarpgroupWait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}
// Shared memory written by threads (cp.async, stores) made visible to wgmma's reads.
__device__ __forceinline__ void fsAsyncProxyFence() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// The wgmma wrappers, d (64 x N, float32) = a (64 x K) * b (N x K)^T + (accumulate ? d : 0), b
// K-major in shared memory (a descriptor), K 16 bfloat16 or 8 TF32 values (32 bytes a row):
// fsWarpgroupMma<Element, N> with a K-major in shared memory too, fsWarpgroupMmaA<Element, N>
// with a in registers, this warp's 16 rows in the layout of an m64nN result's columns (bfloat16:
// 8 accumulators packed in pairs; TF32: FsWarpgroupMath::hiddenFragment's order).
template <typename Element>
constexpr int kWarpgroupK = 32 / static_cast<int>(sizeof(Element));  // one wgmma's K
template <typename Element, int N>
__device__ __forceinline__ void fsWarpgroupMma(float (&d)[N / 2], unsigned long long a,
                                               unsigned long long b, int accumulate);
template <typename Element, int N>
__device__ __forceinline__ void fsWarpgroupMmaA(float (&d)[N / 2], const unsigned (&a)[4],
                                                unsigned long long b, int accumulate);

// An m64nN result's N / 2 accumulators as asm operands, and their operand numbers.
#define FS_WG_D4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define FS_WG_D8(i) FS_WG_D4(i), FS_WG_D4(i + 4)
#define FS_WG_D16(i) FS_WG_D8(i), FS_WG_D8(i + 8)
#define FS_WG_D32(i) FS_WG_D16(i), FS_WG_D16(i + 16)
#define FS_WG_D64(i) FS_WG_D32(i), FS_WG_D32(i + 32)
#define FS_WG_LIST8 "%0, %1, %2, %3, %4, %5, %6, %7"
#define FS_WG_LIST16 FS_WG_LIST8 ", %8, %9, %10, %11, %12, %13, %14, %15"
#define FS_WG_LIST32                                                                \
    FS_WG_LIST16                                                                    \
    ", %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, " \
    "%31"
#define FS_WG_LIST64                                                                   \
    FS_WG_LIST32                                                                       \
    ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "    \
    "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, " \
    "%63"

// One wrapper: `name`<Element, N> with a (`aParameter`) and b, the instruction's shape suffix,
// `flag` the accumulate flag's operand, `operands` a's and b's, `tail` the immediate scale (and
// transpose) operands, then the asm inputs.
#define FS_WARPGROUP_MMA(name, Element, N, kAcc, aParameter, shape, flag, operands, tail, ...) \
    template <>                                                                                \
    __device__ __forceinline__ void name<Element, N>(float(&d)[kAcc], aParameter,              \
                                                     unsigned long long b, int accumulate) {   \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " flag                                  \
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" #N shape " {" FS_WG_LIST##kAcc  \
                     "}, " operands ", p, " tail ";\n}\n"                                      \
                     : FS_WG_D##kAcc(0)                                                        \
                     : __VA_ARGS__);                                                           \
    }

// The four wrappers of width N, whose result is kAcc (N / 2) accumulators: `ss` names a's and
// b's descriptors and `ssFlag` the accumulate flag after them; `rs` a's registers and b's
// descriptor, `rsFlag` the flag after them. bfloat16 reads b transposed (imm-trans-b 0: K-major),
// TF32 has no transpose operands (K-major only).
#define FS_WARPGROUP_MMAS(N, kAcc, ss, ssFlag, rs, rsFlag)                                        \
    FS_WARPGROUP_MMA(fsWarpgroupMma, fs_bf16, N, kAcc, unsigned long long a, "k16.f32.bf16.bf16", \
                     ssFlag, ss, "1, 1, 0, 0", "l"(a), "l"(b), "r"(accumulate))                   \
    FS_WARPGROUP_MMA(fsWarpgroupMmaA, fs_bf16, N, kAcc, const unsigned(&a)[4],                    \
                     "k16.f32.bf16.bf16", rsFlag, rs, "1, 1, 0", "r"(a[0]), "r"(a[1]), "r"(a[2]), \
                     "r"(a[3]), "l"(b), "r"(accumulate))                                          \
    FS_WARPGROUP_MMA(fsWarpgroupMma, float, N, kAcc, unsigned long long a, "k8.f32.tf32.tf32",    \
                     ssFlag, ss, "1, 1", "l"(a), "l"(b), "r"(accumulate))                         \
    FS_WARPGROUP_MMA(fsWarpgroupMmaA, float, N, kAcc, const unsigned(&a)[4], "k8.f32.tf32.tf32",  \
                     rsFlag, rs, "1, 1", "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b),      \
                     "r"(accumulate))

FS_WARPGROUP_MMAS(16, 8, "%8, %9", "%10", "{%8, %9, %10, %11}, %12", "%13")
FS_WARPGROUP_MMAS(32, 16, "%16, %17", "%18", "{%16, %17, %18, %19}, %20", "%21")
FS_WARPGROUP_MMAS(64, 32, "%32, %33", "%34", "{%32, %33, %34, %35}, %36", "%37")
FS_WARPGROUP_MMAS(128, 64, "%64, %65", "%66", "{%64, %65, %66, %67}, %68", "%69")

// c (64 x N) = A (rows aRow.., kK deep) * B (rows bRow.., N of them, kK deep)^T, plus c where
// `accumulate`; A and B are shared-window addresses of Swizzle<kK, sizeof(Element)> tiles.
template <typename Element, int N, int kK>
__device__ __forceinline__ void fsWarpgroupProduct(float (&c)[N / 2], unsigned aTile, int aRow,
                                                   unsigned bTile, int bRow, bool accumulate) {
    using Layout = Swizzle<kK, sizeof(Element)>;
#pragma unroll
    for (int k = 0; k < kK; k += kWarpgroupK<Element>)
        fsWarpgroupMma<Element, N>(c, fsDescriptor<Layout::kRowBytes>(aTile + Layout::at(aRow, k)),
                                   fsDescriptor<Layout::kRowBytes>(bTile + Layout::at(bRow, k)),
                                   accumulate || k > 0 ? 1 : 0);
}

// Where thread `lane` of warp `warp` (of its warpgroup) holds accumulator 4j + e of a wgmma
// m64nN result: row 16 warp + lane / 4 + 8 (e / 2), column 8j + 2 (lane % 4) + e % 2.
__device__ __forceinline__ int fsAccumulatorRow(int warp, int lane, int e) {
    return 16 * warp + lane / 4 + 8 * (e / 2);
}
__device__ __forceinline__ int fsAccumulatorColumn(int lane, int j, int e) {
    return 8 * j + 2 * (lane % 4) + e % 2;
}

#if FS_BF16
// What the kernel does per element type, bfloat16: the copy ring's math (FsBf16Math), and the
// hidden tile's A fragment of k step k: a result's columns 16k..16k + 15 (accumulators 8k..8k +
// 7), silu(g) * u in bfloat16 (the lesson's h.to(down's dtype)) packed in pairs.
struct FsWarpgroupMath {
    using Copy = FsBf16Math;
    using Element = fs_bf16;
    __device__ __forceinline__ static void hiddenFragment(unsigned (&a)[4], const float* g,
                                                          const float* u, int k) {
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int e = 8 * k + 2 * q;
            a[q] = fsPack(fsLessonSilu(g[e]) * u[e], fsLessonSilu(g[e + 1]) * u[e + 1]);
        }
    }
    // out[0..1] = v0, v1; `pair`: both exist and the pair is 4-byte aligned.
    __device__ __forceinline__ static void store(fs_bf16* to, float v0, float v1, bool pair,
                                                 bool second) {
        if (pair) {
            *reinterpret_cast<unsigned*>(to) = fsPack(v0, v1);
        } else {
            to[0] = fsFromFloat(v0);
            if (second) to[1] = fsFromFloat(v1);
        }
    }
};
#else
// What the kernel does per element type, TF32: the copy ring's tiles (FsSwizzledTiles), the gate
// and up tiles' rows interleaved (SwizzledRows) so that each thread's accumulator pair of g and u
// holds the hidden columns t and t + 4 its A fragment needs, and the hidden tile's A fragment of
// k step k (8 columns): rows lane / 4 and + 8 at columns t and t + 4 of the step
// (t = lane % 4), which the interleaved gate and up rows put in accumulators 4k, 4k + 2 (column
// 2t) and 4k + 1, 4k + 3 (column 2t + 1); passed as TF32 as every operand is (fsTf32).
struct FsWarpgroupMath {
    using Copy = FsSwizzledTiles<float, true>;
    using Element = float;
    __device__ __forceinline__ static void hiddenFragment(unsigned (&a)[4], const float* g,
                                                          const float* u, int k) {
        constexpr int kOrder[4] = {0, 2, 1, 3};
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int e = 4 * k + kOrder[q];
            a[q] = fsTf32(fsLessonSilu(g[e]) * u[e]);
        }
    }
    __device__ __forceinline__ static void store(float* to, float v0, float v1, bool pair,
                                                 bool second) {
        if (pair) {
            *reinterpret_cast<float2*>(to) = make_float2(v0, v1);
        } else {
            to[0] = v0;
            if (second) to[1] = v1;
        }
    }
};
#endif

template <int kBounds>
__device__ __forceinline__ void fsLessonWarpgroups(const FsMath::Element* __restrict__ x,
                                                   const FsMath::Element* __restrict__ gate,
                                                   const FsMath::Element* __restrict__ up,
                                                   const FsMath::Element* __restrict__ down,
                                                   FsMath::Element* __restrict__ out, int M, int H,
                                                   int I) {
    using Math = FsWarpgroupMath::Copy;
    using Element = FsWarpgroupMath::Element;
    constexpr int kElementBytes = static_cast<int>(sizeof(Element));
    constexpr int BM = FS_BM, BN = FS_BN, BH = FS_BH, BI = FS_BI, kStages = FS_STAGES;
    // In bytes.
    constexpr int kX = Math::kXWords, kW = Math::kWeightWords;
    constexpr int kStage = kX + 2 * kW;
    constexpr int kDownAt = kStages * kStage;
    // No hidden tile: it stays in registers.
    constexpr int kSharedBytes = kDownAt + Math::kDownWords;
    // Each tile starts on its swizzle's repeat (8 rows, up to 1 KiB) from a 1 KiB-aligned base.
    constexpr int kRepeatH = 8 * BH * kElementBytes < 1024 ? 8 * BH * kElementBytes : 1024;
    constexpr int kRepeatI = 8 * BI * kElementBytes < 1024 ? 8 * BI * kElementBytes : 1024;
    static_assert(kX % kRepeatH == 0 && kW % kRepeatH == 0 && kDownAt % kRepeatI == 0,
                  "tiles start on their swizzle's repeat");
    extern __shared__ __align__(128) unsigned char smem[];
    // The layout starts on the first 1 KiB boundary (the launch asks 1 KiB more for this).
    const unsigned window = (fsShared(smem) + 1023u) & ~1023u;
    unsigned char* shared = smem + (window - fsShared(smem));
    const int m0 = static_cast<int>(blockIdx.x) * BM, n0 = static_cast<int>(blockIdx.y) * BN;
    const int stepsH = (H + BH - 1) / BH, chunks = (I + BI - 1) / BI;
    // Rows that are whole 16-byte units.
    const bool alignedH = H % (16 / kElementBytes) == 0, alignedI = I % (16 / kElementBytes) == 0;
    // Warpgroups split the M tile into 64-row groups and, where there are two per 64 rows, the
    // columns of g and u (the hidden tile) in halves: fewer accumulators a thread at wide tiles.
    constexpr int kWarpgroups = FS_WARPS / 4, kColumnGroups = kWarpgroups / (BM / 64);
    constexpr int kHiddenColumns = BI / kColumnGroups;
    const int lane = static_cast<int>(threadIdx.x) % 32,
              warp = static_cast<int>(threadIdx.x) / 32 % 4;
    const int warpgroup = static_cast<int>(threadIdx.x) / 128;
    const int rows = warpgroup / kColumnGroups * 64;  // this warpgroup's first row
    const int columnGroup = warpgroup % kColumnGroups;
    const int hiddenColumn = columnGroup * kHiddenColumns;

    FsCopyRing<Math, kBounds> ring{x, gate, up, shared, m0, M, H, I, stepsH, chunks, alignedH};
    // A step's copies: at a chunk's first step also down's tile, once every warp has passed the
    // barrier after the previous chunk's down product (waited for at its end).
    const auto copyNext = [&](int step, int chunk) {
        if (step == 0) {
            Math::template copyTile<BN, BI, kFsWeightChecks<kBounds>>(shared + kDownAt, down, I, n0,
                                                                      chunk * BI, H, I, alignedI);
            if (kBounds == kFsAllChecked && !alignedI) fsAsyncProxyFence();  // stores, as above
        }
        ring.next();
    };

    float g[kHiddenColumns / 2], u[kHiddenColumns / 2], o[BN / 2];
    // A step's products read their stage after they are issued, until a later wgmma wait. Where
    // the ring has a stage to spare (copies FS_AHEAD <= kStages - 2 steps ahead), a step's copies
    // refill the stage of the step before the previous one, whose products every warp waited for
    // before this step's barrier: one barrier a step, and the copies are issued after the
    // products. Otherwise they refill the previous step's stage, after a second barrier that
    // follows every warp's wait for that step's products.
    constexpr int kAhead = FS_AHEAD;
    constexpr bool kOneBarrier = kAhead <= kStages - 2;
    static_assert(kAhead >= 1 && kAhead <= kStages - 1, "the copies run 1 to kStages - 1 ahead");
    for (int s = 0; s < kAhead; ++s) ring.next();
    int slot = 0;
    for (int chunk = 0; chunk < chunks; ++chunk) {
        // Each step's products run while the block waits for and issues the next copies. (One
        // loop per chunk: ptxas waits for every product at a loop's back edge where accumulators
        // the products define meet others, as they would in one loop over all steps.)
        for (int step = 0; step < stepsH; ++step) {
            fsWait<kAhead - 1>();
            // cp.async's copies are visible to wgmma after the wait and the barrier; the element
            // by element copies of rows that are not whole 16-byte units are stores, which need
            // the proxy fence (as the hidden tile does). Only the edge kernel makes them: in the
            // _rows kernel H is whole tiles, so its rows are whole units.
            if (kBounds == kFsAllChecked && !alignedH) fsAsyncProxyFence();
            __syncthreads();  // this step's tiles are visible to all
            const unsigned stage = window + static_cast<unsigned>(slot * kStage);
            fsWarpgroupFence();
            fsWarpgroupProduct<Element, kHiddenColumns, BH>(g, stage, rows, stage + kX,
                                                            hiddenColumn, step > 0);
            fsWarpgroupProduct<Element, kHiddenColumns, BH>(u, stage, rows, stage + kX + kW,
                                                            hiddenColumn, step > 0);
            fsWarpgroupCommit();
            if constexpr (kOneBarrier) copyNext(step, chunk);
            fsWarpgroupWait<1>();  // the previous step's products are done in this warp
            if constexpr (!kOneBarrier) {
                __syncthreads();  // and in every warp: their stage is free
                copyNext(step, chunk);
            }
            slot = slot + 1 == kStages ? 0 : slot + 1;
        }
        fsWarpgroupWait<0>();
        // hidden = silu(g) * u, kept in registers as the A operand of the down product, one
        // fragment a k step (FsWarpgroupMath::hiddenFragment). Zero beyond I and M, since g and u
        // are (zero-filled tiles).
        constexpr int kStep = kWarpgroupK<Element>;
        unsigned hidden[kHiddenColumns / kStep][4];
#pragma unroll
        for (int k = 0; k < kHiddenColumns / kStep; ++k)
            FsWarpgroupMath::hiddenFragment(hidden[k], g, u, k);
        if (stepsH <= kAhead) {  // down's tile may be in a group still in flight
            fsWait<0>();
            __syncthreads();
        }
        // This warpgroup's hidden columns times the same rows of down's tile: the whole output
        // tile, summed over the warpgroups of a row group at the end.
        fsWarpgroupFence();
#pragma unroll
        for (int k = 0; k < kHiddenColumns / kStep; ++k)
            fsWarpgroupMmaA<Element, BN>(
                o, hidden[k],
                fsDescriptor<Swizzle<BI, kElementBytes>::kRowBytes>(
                    window + kDownAt + Swizzle<BI, kElementBytes>::at(0, hiddenColumn + kStep * k)),
                chunk > 0 || k > 0 ? 1 : 0);
        fsWarpgroupCommit();
        fsWarpgroupWait<0>();
    }
    fsWait<0>();
    if constexpr (kColumnGroups > 1) {
        // The second warpgroup of each row group hands its partial output tile to the first
        // through shared memory, which no copy or product uses any more.
        static_assert(kColumnGroups == 1 || BM / 64 * 64 * BN * 4 <= kSharedBytes,
                      "the partial output tiles fit in the block's shared memory");
        float* partial = reinterpret_cast<float*>(shared) + rows * BN;
        __syncthreads();
        if (columnGroup == 1) {
#pragma unroll
            for (int j = 0; j < BN / 8; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    partial[fsAccumulatorRow(warp, lane, e) * BN +
                            fsAccumulatorColumn(lane, j, e)] = o[4 * j + e];
        }
        __syncthreads();
        if (columnGroup == 1) return;
#pragma unroll
        for (int j = 0; j < BN / 8; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                o[4 * j + e] +=
                    partial[fsAccumulatorRow(warp, lane, e) * BN + fsAccumulatorColumn(lane, j, e)];
    }
#pragma unroll
    for (int j = 0; j < BN / 8; ++j)
#pragma unroll
        for (int e = 0; e < 4; e += 2) {
            const int r = m0 + rows + fsAccumulatorRow(warp, lane, e);
            const int c = n0 + fsAccumulatorColumn(lane, j, e);
            if (r >= M || c >= H) continue;
            Element* to = out + static_cast<long long>(r) * H + c;
            FsWarpgroupMath::store(to, o[4 * j + e], o[4 * j + e + 1], c + 1 < H && H % 2 == 0,
                                   c + 1 < H);
        }
}

#endif
