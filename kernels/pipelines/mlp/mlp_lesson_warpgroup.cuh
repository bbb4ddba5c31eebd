// The lesson kernel at BLOCK_M of 64 or 128 in bfloat16 on Hopper (sm_90a): the structure, the
// copies and the shared-memory tiles of mlp_lesson_tiled.cu's tensor-core kernel, multiplied with
// the warpgroup MMA (wgmma) instead of mma.sync, as the lesson's Triton kernel does at these tiles.
// One warpgroup (4 warps) per 64 rows of the M tile, or two at BLOCK_M 64 where one would hold
// 128 or more accumulators a thread (each then takes half the columns of g and u). Each multiplies
// its 64 rows of x by its rows of the gate and up tiles (both operands in shared memory), keeps
// its part of the hidden tile in registers as the A operand of the down product (as the lesson's
// Triton kernel does), and multiplies it by the matching columns of down's tile; two warpgroups
// of one row group add their output tiles at the end. Swizzle<kCols> is the layout wgmma reads
// with a 32-, 64- or 128-byte swizzle (kCols 16, 32, 64; 128 as two 64-column atoms side by side
// per 8-row group), once the tiles start on 1 KiB. Put after mlp_lesson_tiled.cu by CMake;
// compiled with -DFS_WGMMA=1 for sm_90a only.

#if FS_WGMMA

#if !FS_BF16 || FS_BM % 64 != 0 || (FS_WARPS != FS_BM / 16 && FS_WARPS != 2 * FS_BM / 16)
#error \
    "the warpgroup kernel is bfloat16 at BLOCK_M 64 or 128, with one or two warpgroups per 64 rows"
#endif

// A shared-memory matrix descriptor of a K-major tile in Swizzle<kCols>'s layout, starting at
// `address` (a row group's first row, at a k offset inside the row): 8-row groups 16 kCols bytes
// apart, the swizzle that matches the row width.
template <int kCols>
__device__ __forceinline__ unsigned long long fsDescriptor(unsigned address) {
    constexpr unsigned long long kSwizzle = kCols >= 64 ? 1 : kCols == 32 ? 2 : 3;
    constexpr unsigned long long kGroupBytes = 16 * kCols;
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

// d (64 x N, float32) = a (64 x 16) * b (N x 16)^T + (accumulate ? d : 0), both bfloat16 tiles in
// shared memory, K-major.
template <int N>
__device__ __forceinline__ void fsWarpgroupMma(float (&d)[N / 2], unsigned long long a,
                                               unsigned long long b, int accumulate);
template <>
__device__ __forceinline__ void fsWarpgroupMma<16>(float (&d)[8], unsigned long long a,
                                                   unsigned long long b, int accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %10, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7])
        : "l"(a), "l"(b), "r"(accumulate));
}
template <>
__device__ __forceinline__ void fsWarpgroupMma<32>(float (&d)[16], unsigned long long a,
                                                   unsigned long long b, int accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %18, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, "
        "%16, %17, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15])
        : "l"(a), "l"(b), "r"(accumulate));
}
template <>
__device__ __forceinline__ void fsWarpgroupMma<64>(float (&d)[32], unsigned long long a,
                                                   unsigned long long b, int accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "
        "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "%32, %33, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
          "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
          "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(a), "l"(b), "r"(accumulate));
}
template <>
__device__ __forceinline__ void fsWarpgroupMma<128>(float (&d)[64], unsigned long long a,
                                                    unsigned long long b, int accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "
        "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "
        "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, "
        "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n"
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
          "+f"(d[63])
        : "l"(a), "l"(b), "r"(accumulate));
}

// d (64 x N, float32) = a (64 x 16, this warp's 16 rows in registers, laid out as an m64nNk16
// result's columns 16k..16k + 15 pack) * b (N x 16)^T + (accumulate ? d : 0); b bfloat16 in
// shared memory, K-major.
template <int N>
__device__ __forceinline__ void fsWarpgroupMmaA(float (&d)[N / 2], const unsigned (&a)[4],
                                                unsigned long long b, int accumulate);
template <>
__device__ __forceinline__ void fsWarpgroupMmaA<16>(float (&d)[8], const unsigned (&a)[4],
                                                    unsigned long long b, int accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %13, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(accumulate));
}
template <>
__device__ __forceinline__ void fsWarpgroupMmaA<32>(float (&d)[16], const unsigned (&a)[4],
                                                    unsigned long long b, int accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %21, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, "
        "{%16, %17, %18, %19}, %20, p, 1, 1, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(accumulate));
}
template <>
__device__ __forceinline__ void fsWarpgroupMmaA<64>(float (&d)[32], const unsigned (&a)[4],
                                                    unsigned long long b, int accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %37, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "
        "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "{%32, %33, %34, %35}, %36, p, 1, 1, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
          "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
          "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(accumulate));
}
template <>
__device__ __forceinline__ void fsWarpgroupMmaA<128>(float (&d)[64], const unsigned (&a)[4],
                                                     unsigned long long b, int accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %69, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "
        "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "
        "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, "
        "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
        "{%64, %65, %66, %67}, %68, p, 1, 1, 0;\n"
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
          "+f"(d[63])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(accumulate));
}

// c (64 x N) = A (rows aRow.., kK deep) * B (rows bRow.., N of them, kK deep)^T, plus c where
// `accumulate`; A and B are shared-window addresses of Swizzle<kK> tiles.
template <int N, int kK>
__device__ __forceinline__ void fsWarpgroupProduct(float (&c)[N / 2], unsigned aTile, int aRow,
                                                   unsigned bTile, int bRow, bool accumulate) {
#pragma unroll
    for (int k = 0; k < kK; k += 16)
        fsWarpgroupMma<N>(c, fsDescriptor<kK>(aTile + Swizzle<kK>::at(aRow, k)),
                          fsDescriptor<kK>(bTile + Swizzle<kK>::at(bRow, k)),
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

template <bool kFull>
__device__ __forceinline__ void fsLessonWarpgroups(const fs_bf16* __restrict__ x,
                                                   const fs_bf16* __restrict__ gate,
                                                   const fs_bf16* __restrict__ up,
                                                   const fs_bf16* __restrict__ down,
                                                   fs_bf16* __restrict__ out, int M, int H, int I) {
    using Math = FsBf16Math;
    constexpr int BM = FS_BM, BN = FS_BN, BH = FS_BH, BI = FS_BI, kStages = FS_STAGES;
    // In bytes.
    constexpr int kX = Math::kXWords, kW = Math::kWeightWords;
    constexpr int kStage = kX + 2 * kW;
    constexpr int kDownAt = kStages * kStage;
    // No hidden tile: it stays in registers.
    constexpr int kSharedBytes = kDownAt + Math::kDownWords;
    // Each tile starts on its swizzle's repeat (8 rows, up to 1 KiB) from a 1 KiB-aligned base.
    constexpr int kRepeatH = 16 * BH < 1024 ? 16 * BH : 1024;
    constexpr int kRepeatI = 16 * BI < 1024 ? 16 * BI : 1024;
    static_assert(kX % kRepeatH == 0 && kW % kRepeatH == 0 && kDownAt % kRepeatI == 0,
                  "tiles start on their swizzle's repeat");
    extern __shared__ __align__(128) unsigned char smem[];
    // The layout starts on the first 1 KiB boundary (the launch asks 1 KiB more for this).
    const unsigned window = (fsShared(smem) + 1023u) & ~1023u;
    unsigned char* shared = smem + (window - fsShared(smem));
    const int m0 = static_cast<int>(blockIdx.x) * BM, n0 = static_cast<int>(blockIdx.y) * BN;
    const int stepsH = (H + BH - 1) / BH, chunks = (I + BI - 1) / BI;
    const bool alignedH = H % 8 == 0, alignedI = I % 8 == 0;
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

    FsCopyRing<Math, kFull> ring{x, gate, up, shared, m0, M, H, I, stepsH, chunks, alignedH};

    float g[kHiddenColumns / 2], u[kHiddenColumns / 2], o[BN / 2];
    for (int s = 0; s < kStages - 1; ++s) ring.next();
    int slot = 0;
    for (int chunk = 0; chunk < chunks; ++chunk) {
        // Each step's products run while the block waits for and issues the next copies: a step
        // waits only for the previous step's products, whose stage its copies then refill. (One
        // loop per chunk: ptxas waits for every product at a loop's back edge where accumulators
        // the products define meet others, as they would in one loop over all steps.)
        for (int step = 0; step < stepsH; ++step) {
            fsWait<kStages - 2>();
            // cp.async's copies are visible to wgmma after the wait and the barrier; the element
            // by element copies of rows that are not whole 16-byte units are stores, which need
            // the proxy fence (as the hidden tile does).
            if (!kFull && !alignedH) fsAsyncProxyFence();
            __syncthreads();  // this step's tiles are visible to all
            const unsigned stage = window + static_cast<unsigned>(slot * kStage);
            fsWarpgroupFence();
            fsWarpgroupProduct<kHiddenColumns, BH>(g, stage, rows, stage + kX, hiddenColumn,
                                                   step > 0);
            fsWarpgroupProduct<kHiddenColumns, BH>(u, stage, rows, stage + kX + kW, hiddenColumn,
                                                   step > 0);
            fsWarpgroupCommit();
            fsWarpgroupWait<1>();  // the previous step's products are done in this warp,
            __syncthreads();       // and in every warp: their stage is free
            if (step == 0) {  // the previous chunk's down product is over (waited for at its end)
                Math::template copyTile<BN, BI, kFull>(shared + kDownAt, down, I, n0, chunk * BI, H,
                                                       I, alignedI);
                if (!kFull && !alignedI) fsAsyncProxyFence();  // stores, as above
            }
            ring.next();
            slot = slot + 1 == kStages ? 0 : slot + 1;
        }
        fsWarpgroupWait<0>();
        // hidden = silu(g) * u in bfloat16 (the lesson's h.to(down's dtype)), kept in registers
        // as the A operand of the down product: a result's columns 16k..16k + 15 (accumulators
        // 8k..8k + 7) are, packed in pairs, the A fragment of k step k. Zero beyond I and M,
        // since g and u are (zero-filled tiles).
        unsigned hidden[kHiddenColumns / 16][4];
#pragma unroll
        for (int k = 0; k < kHiddenColumns / 16; ++k)
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const int e = 8 * k + 2 * q;
                hidden[k][q] = fsPack(fsSilu(g[e]) * u[e], fsSilu(g[e + 1]) * u[e + 1]);
            }
        if (stepsH < kStages) {  // down's tile may be in a group still in flight
            fsWait<0>();
            __syncthreads();
        }
        // This warpgroup's hidden columns times the same rows of down's tile: the whole output
        // tile, summed over the warpgroups of a row group at the end.
        fsWarpgroupFence();
#pragma unroll
        for (int k = 0; k < kHiddenColumns / 16; ++k)
            fsWarpgroupMmaA<BN>(
                o, hidden[k],
                fsDescriptor<BI>(window + kDownAt + Swizzle<BI>::at(0, hiddenColumn + 16 * k)),
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
            if (r >= M) continue;
            fs_bf16* to = out + static_cast<long long>(r) * H + c;
            if (c + 1 < H && H % 2 == 0) {
                *reinterpret_cast<unsigned*>(to) = fsPack(o[4 * j + e], o[4 * j + e + 1]);
            } else {
                if (c < H) to[0] = fsFromFloat(o[4 * j + e]);
                if (c + 1 < H) to[1] = fsFromFloat(o[4 * j + e + 1]);
            }
        }
}

#endif
