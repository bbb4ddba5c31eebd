// The lesson's fused SwiGLU MLP kernel (decode-lab's swiglu.py) ported to CUDA with its structure
// kept: a grid of M tiles x output-column tiles; per I chunk, g and u tiles accumulated over all
// of H, SiLU*up in registers, then that hidden tile times down's chunk accumulated into the block's
// output tile. Gate and up are therefore re-read for every output-column tile.
//
// How it is run: 4 warps (Triton's default), the (I chunk, H step) loop flattened into one
// cp.async pipeline of kStages shared-memory stages (x, gate and up tiles; down's tile rides in the
// group of its chunk's first step), so the copies of the next steps overlap the current step's
// products. bfloat16 has its own kernel (mlp_lesson_bf16.cuh: ldmatrix and mma.m16n8k16 on
// XOR-swizzled 128-byte rows, every shared address a per-thread register plus a constant); float32
// runs the generic kernel below, plain FMAs on the CUDA cores, a 4x4 register tile per thread (no
// TF32).
#include <algorithm>

#include "pipelines/cuda_kernel_resources.h"
#include "pipelines/mlp/mlp_async_copy.cuh"
#include "pipelines/mlp/mlp_device.cuh"
#include "pipelines/mlp/mlp_launch.h"
#include "pipelines/mlp/mlp_lesson_bf16.cuh"
#include "platform/kernel_shared_memory.h"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kThreads = 128;  // Triton's default num_warps = 4
constexpr int BM = kLessonDefaultTiles.blockM;
constexpr int BN = kLessonDefaultTiles.blockN;
constexpr int BH = kLessonDefaultTiles.blockH;
constexpr int BI = kLessonDefaultTiles.blockI;
static_assert(BM == 32 && BN == 64 && BH == 64 && BI == 64,
              "the warp layouts below are written for the lesson's default tiles");
constexpr int kCols = 64;  // every staged tile is 64 elements wide (BH or BI)

// Shared-memory layout of one element type: a tile of `rows` x 64 elements, where element (r, c)
// lives, and how many pipeline stages fit.
template <typename T>
struct Layout;

// float32: 256-byte rows, unit u of row r at unit u ^ (r % 8), so the 8 rows a quarter-warp
// reads with 16-byte loads fall in 8 different bank groups. Two stages: 112 KB, two blocks an SM.
template <>
struct Layout<float> {
    static constexpr int kStages = 2;
    __device__ __forceinline__ static int at(int r, int c) {
        return r * kCols + ((((c >> 2) ^ r) & 7) << 2) + (((c >> 2) & 8) << 2) + (c & 3);
    }
};

template <typename T>
struct Smem {
    static constexpr int kStages = Layout<T>::kStages;
    static constexpr int kX = BM * kCols;  // elements of each tile
    static constexpr int kW = BI * kCols;  // gate, up and down tiles (BI = BN = 64 rows)
    static constexpr int kStage = kX + 2 * kW;
    // stages | down slots (one per stage). The hidden tile reuses the x tile of the stage that
    // was just multiplied.
    static constexpr int kDownOffset = kStages * kStage;
    static constexpr int kBytes = (kDownOffset + kStages * kW) * static_cast<int>(sizeof(T));
};

// Copies a kRows x 64 tile, tile(r, c) = src[row0 + r][col0 + c], zero outside rowLimit x
// colLimit. Each thread always copies the same column of every kRowStep-th row, so its offsets are
// fixed once. `aligned`: rows are whole 16-byte units (then cp.async; else plain loads and stores).
template <typename T, int kRows>
struct TileCopy {
    static constexpr int kP = kPack<T>;
    static constexpr int kUnits = kCols / kP;
    static constexpr int kRowStep = kThreads / kUnits;
    static_assert(kThreads % kUnits == 0 && kRows % kRowStep == 0, "tile must split evenly");
    int r0, c0;

    __device__ __forceinline__ TileCopy()
        : r0(static_cast<int>(threadIdx.x) / kUnits),
          c0(static_cast<int>(threadIdx.x) % kUnits * kP) {}

    __device__ __forceinline__ void operator()(T* tile, const T* __restrict__ src, int ld, int row0,
                                               int col0, int rowLimit, int colLimit,
                                               bool aligned) const {
        const int col = col0 + c0;
        const T* from = src + static_cast<std::int64_t>(row0 + r0) * ld + col;
#pragma unroll
        for (int j = 0; j < kRows / kRowStep; ++j) {
            const int r = r0 + j * kRowStep;
            const bool rowValid = row0 + r < rowLimit;
            const T* p = from + static_cast<std::int64_t>(j * kRowStep) * ld;
            T* dst = tile + Layout<T>::at(r, c0);
            if (aligned) {
                const bool valid = rowValid && col < colLimit;
                copyAsync16(dst, valid ? p : src, valid);
            } else {
#pragma unroll
                for (int e = 0; e < kP; ++e)
                    dst[e] = rowValid && col + e < colLimit ? p[e] : fromFloat<T>(0.0f);
            }
        }
    }
};

// The block's products, per element type (float32 here; bfloat16 has its own kernel).
template <typename T>
struct Math;

// float32: thread (ty, tx) = (thread / 16, thread % 16) owns rows ty + 8i and columns tx + 16j
// (i, j < 4) of each tile; rows and columns interleaved so that a quarter-warp's 16-byte reads
// hit 8 different rows.
template <>
struct Math<float> {
    float g[4][4], u[4][4], o[4][4];

    __device__ __forceinline__ void zeroGateUp() {
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) g[i][j] = u[i][j] = 0.0f;
    }
    __device__ __forceinline__ void zeroOut() {
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) o[i][j] = 0.0f;
    }

    template <int kB>
    __device__ __forceinline__ static void product(float (*const (&acc)[kB])[4], const float* a,
                                                   const float* const (&b)[kB]) {
        const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
#pragma unroll 2
        for (int k = 0; k < kCols; k += 4) {
            float4 av[4], bv[kB][4];
#pragma unroll
            for (int i = 0; i < 4; ++i)
                av[i] = *reinterpret_cast<const float4*>(a + Layout<float>::at(ty + 8 * i, k));
#pragma unroll
            for (int m = 0; m < kB; ++m)
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    bv[m][j] =
                        *reinterpret_cast<const float4*>(b[m] + Layout<float>::at(tx + 16 * j, k));
#pragma unroll
            for (int m = 0; m < kB; ++m)
#pragma unroll
                for (int i = 0; i < 4; ++i)
#pragma unroll
                    for (int j = 0; j < 4; ++j) {
                        float& c = acc[m][i][j];
                        c = fmaf(av[i].x, bv[m][j].x, c);
                        c = fmaf(av[i].y, bv[m][j].y, c);
                        c = fmaf(av[i].z, bv[m][j].z, c);
                        c = fmaf(av[i].w, bv[m][j].w, c);
                    }
        }
    }

    __device__ __forceinline__ void gateUp(const float* xs, const float* gs, const float* us) {
        float(*const acc[2])[4] = {g, u};
        const float* const b[2] = {gs, us};
        product<2>(acc, xs, b);
    }

    __device__ __forceinline__ void storeHidden(float* hs) const {
        const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                hs[Layout<float>::at(ty + 8 * i, tx + 16 * j)] = fsLessonSilu(g[i][j]) * u[i][j];
    }

    __device__ __forceinline__ void down(const float* hs, const float* ds) {
        float(*const acc[1])[4] = {o};
        const float* const b[1] = {ds};
        product<1>(acc, hs, b);
    }

    __device__ __forceinline__ void storeOut(float* __restrict__ out, const MlpShape& s,
                                             std::int64_t m0, std::int64_t n0) const {
        const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const std::int64_t r = m0 + ty + 8 * i, c = n0 + tx + 16 * j;
                if (r < s.M && c < s.H) out[r * s.H + c] = o[i][j];
            }
    }
};

template <typename T>
__global__ void __launch_bounds__(kThreads, 2)
    swigluMlpLesson(const T* __restrict__ x, const T* __restrict__ gate, const T* __restrict__ up,
                    const T* __restrict__ down, T* __restrict__ out, MlpShape shape, bool alignedH,
                    bool alignedI) {
    using S = Smem<T>;
    constexpr int kStages = S::kStages;
    extern __shared__ __align__(128) unsigned char smemBytes[];
    T* smem = reinterpret_cast<T*>(smemBytes);
    const int M = static_cast<int>(shape.M), H = static_cast<int>(shape.H);
    const int I = static_cast<int>(shape.I);
    const int m0 = static_cast<int>(blockIdx.x) * BM, n0 = static_cast<int>(blockIdx.y) * BN;
    const int stepsH = (H + BH - 1) / BH, chunks = (I + BI - 1) / BI;
    const TileCopy<T, BM> copyX;
    const TileCopy<T, BI> copyW;

    // The next step to stage: I chunk loadChunk, H step loadStep, into stage loadSlot; its chunk's
    // down tile into down slot loadChunk % kStages.
    int loadChunk = 0, loadStep = 0, loadSlot = 0, loadDownSlot = 0;
    const auto stageNext = [&] {
        if (loadChunk < chunks) {
            const int i0 = loadChunk * BI, k0 = loadStep * BH;
            T* xs = smem + loadSlot * S::kStage;
            copyX(xs, x, H, m0, k0, M, H, alignedH);
            copyW(xs + S::kX, gate, H, i0, k0, I, H, alignedH);
            copyW(xs + S::kX + S::kW, up, H, i0, k0, I, H, alignedH);
            if (loadStep == 0)
                copyW(smem + S::kDownOffset + loadDownSlot * S::kW, down, I, n0, i0, H, I,
                      alignedI);
            loadSlot = loadSlot + 1 == kStages ? 0 : loadSlot + 1;
            if (++loadStep == stepsH) {
                loadStep = 0;
                ++loadChunk;
                loadDownSlot = loadDownSlot + 1 == kStages ? 0 : loadDownSlot + 1;
            }
        }
        commitAsyncCopies();  // possibly empty: one group per step keeps the count simple
    };

    Math<T> math;
    math.zeroOut();
    math.zeroGateUp();
    for (int s = 0; s < kStages - 1; ++s) stageNext();
    int slot = 0, downSlot = 0;
    for (int chunk = 0; chunk < chunks; ++chunk) {
        for (int step = 0; step < stepsH; ++step) {
            waitAsyncCopies<kStages - 2>();
            __syncthreads();  // this step is visible to all; the previous step's stage is free
            stageNext();
            const T* xs = smem + slot * S::kStage;
            math.gateUp(xs, xs + S::kX, xs + S::kX + S::kW);
            slot = slot + 1 == kStages ? 0 : slot + 1;
        }
        // g and u are zero beyond I and beyond M (zero-filled tiles), so hidden is too. It goes
        // where the last step's x tile was, once every warp is done with that.
        T* hs = smem + (slot == 0 ? kStages - 1 : slot - 1) * S::kStage;
        __syncthreads();
        math.storeHidden(hs);
        __syncthreads();
        math.down(hs, smem + S::kDownOffset + downSlot * S::kW);
        downSlot = downSlot + 1 == kStages ? 0 : downSlot + 1;
        math.zeroGateUp();
    }
    waitAsyncCopies<0>();
    math.storeOut(out, shape, m0, n0);
}

// Both lesson kernels take their stages' shared memory, with all of the unified L1/shared
// storage as shared memory: two bfloat16 blocks an SM.
template <typename Kernel>
Status prepareLessonKernel(Kernel* kernel, int sharedBytes) {
    if (Status s = allowDynamicSharedMemory(kernel, sharedBytes, "lesson kernel"); !s) return s;
    return preferSharedMemoryCarveout(kernel, "lesson kernel");
}

template <typename T>
Status launchTiles(const MlpShape& shape, const void* x, const void* gate, const void* up,
                   const void* down, void* out, cudaStream_t stream) {
    constexpr int kSmem = Smem<T>::kBytes;
    auto* kernel = swigluMlpLesson<T>;
    if (Status s = prepareLessonKernel(kernel, kSmem); !s) return s;
    const dim3 grid(static_cast<unsigned>(ceilDiv(shape.M, BM)),
                    static_cast<unsigned>(ceilDiv(shape.H, BN)));
    const auto pack = static_cast<std::int64_t>(kPack<T>);
    kernel<<<grid, kThreads, kSmem, stream>>>(static_cast<const T*>(x), static_cast<const T*>(gate),
                                              static_cast<const T*>(up),
                                              static_cast<const T*>(down), static_cast<T*>(out),
                                              shape, shape.H % pack == 0, shape.I % pack == 0);
    return launchStatus("swiglu_mlp_lesson launch");
}

template <bool kFull, int kStages>
Status launchBf16(const MlpShape& shape, const void* x, const void* gate, const void* up,
                  const void* down, void* out, cudaStream_t stream) {
    namespace lb = lesson_bf16;
    constexpr int kSmem = lb::Plan<kStages>::kBytes;
    auto* kernel = lb::swigluMlpLessonBf16<kFull, kStages>;
    if (Status s = prepareLessonKernel(kernel, kSmem); !s) return s;
    const dim3 grid(static_cast<unsigned>(ceilDiv(shape.M, BM)),
                    static_cast<unsigned>(ceilDiv(shape.H, BN)));
    const auto pack = static_cast<std::int64_t>(kPack<bf16>);
    kernel<<<grid, lb::kThreads, kSmem, stream>>>(
        static_cast<const bf16*>(x), static_cast<const bf16*>(gate), static_cast<const bf16*>(up),
        static_cast<const bf16*>(down), static_cast<bf16*>(out), shape, shape.H % pack == 0,
        shape.I % pack == 0);
    return launchStatus("swiglu_mlp_lesson launch");
}

// The bfloat16 kernel's stage count (H200, classroom shape: 4 stages 373.9 us, 3 stages 372.8,
// 2 stages 419.9); whole tiles take the copies without bounds checks.
constexpr int kBf16Stages = 4;

template <int kStages>
Status launchBf16Stages(const MlpShape& shape, const void* x, const void* gate, const void* up,
                        const void* down, void* out, cudaStream_t stream) {
    const bool full = shape.M % BM == 0 && shape.H % BH == 0 && shape.I % BI == 0;
    return full ? launchBf16<true, kStages>(shape, x, gate, up, down, out, stream)
                : launchBf16<false, kStages>(shape, x, gate, up, down, out, stream);
}

// What the compiler and the occupancy calculator say about a precompiled lesson kernel at its
// launch's shared memory.
KernelResources resourcesOf(const void* kernel, int smem, const MlpShape& shape) {
    return kernelResourcesOf(kernel, kThreads, smem, ceilDiv(shape.M, BM) * ceilDiv(shape.H, BN));
}

}  // namespace

KernelResources lessonFusedResources(DType dtype, const MlpShape& shape) {
    if (!storesBfloat16(dtype))
        return resourcesOf(reinterpret_cast<const void*>(&swigluMlpLesson<float>),
                           Smem<float>::kBytes, shape);
    const bool full = shape.M % BM == 0 && shape.H % BH == 0 && shape.I % BI == 0;
    constexpr int kSmem = lesson_bf16::Plan<kBf16Stages>::kBytes;
    return resourcesOf(
        full ? reinterpret_cast<const void*>(&lesson_bf16::swigluMlpLessonBf16<true, kBf16Stages>)
             : reinterpret_cast<const void*>(&lesson_bf16::swigluMlpLessonBf16<false, kBf16Stages>),
        kSmem, shape);
}

bool lessonTilesCompiled(const LessonTiles& tiles, DType dtype) {
    return tiles == kLessonDefaultTiles && dtype != DType::Tf32;
}

Status launchLessonFused(DType dtype, const LessonTiles& tiles, const MlpShape& shape,
                         const void* x, const void* gate, const void* up, const void* down,
                         void* out, cudaStream_t stream) {
    if (!lessonTilesCompiled(tiles, dtype))
        return {ErrorCode::InvalidArgument,
                dtype == DType::Tf32 ? "the lesson kernel's tf32 code is compiled at run time only"
                                     : "the lesson kernel is compiled for its default tiles only"};
    return withElementType(dtype, [&](auto* type) {
        using T = std::remove_pointer_t<decltype(type)>;
        if constexpr (std::is_same_v<T, bf16>)
            return launchBf16Stages<kBf16Stages>(shape, x, gate, up, down, out, stream);
        else
            return launchTiles<T>(shape, x, gate, up, down, out, stream);
    });
}

}  // namespace fusescope::mlp
