// The lesson's fused SwiGLU MLP kernel (decode-lab's swiglu.py) ported to CUDA with its structure
// kept: a grid of M tiles x output-column tiles; per I chunk, g and u tiles accumulated over all
// of H, SiLU*up in registers, then that hidden tile times down's chunk accumulated into the block's
// output tile. Gate and up are therefore re-read for every output-column tile.
#include "pipelines/mlp/mlp_launch.h"
#include "pipelines/mlp/mlp_tile_mma.cuh"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kLessonThreads = 128;  // Triton's default num_warps = 4

template <typename T, int BM, int BN, int BH, int BI>
struct LessonKernel {
    using Loop = GateUpLoop<T, BM, BI, BH, kLessonThreads>;
    static constexpr int kStagingLd = (BI > BN ? BI : BN) + 4;
    static constexpr int kHiddenOffset = Loop::kSmemBytes;
    static constexpr int kDownOffset = kHiddenOffset + kTileBytes<T, BM, BI>;
    static constexpr int kStagingOffset = kDownOffset + kTileBytes<T, BN, BI>;
    static constexpr int kSmemBytes = kStagingOffset + BM * kStagingLd * 4;
};

template <typename T, int BM, int BN, int BH, int BI>
__global__ void __launch_bounds__(kLessonThreads)
    swigluMlpLesson(const T* __restrict__ x, const T* __restrict__ gate, const T* __restrict__ up,
                    const T* __restrict__ down, T* __restrict__ out, MlpShape shape, bool packed) {
    using K = LessonKernel<T, BM, BN, BH, BI>;
    extern __shared__ __align__(128) unsigned char smem[];
    T* hs = reinterpret_cast<T*>(smem + K::kHiddenOffset);
    T* ds = reinterpret_cast<T*>(smem + K::kDownOffset);
    float* staging = reinterpret_cast<float*>(smem + K::kStagingOffset);
    constexpr int kHiddenLd = kSmemLd<T, BI>;
    const std::int64_t m0 = static_cast<std::int64_t>(blockIdx.x) * BM;
    const std::int64_t n0 = static_cast<std::int64_t>(blockIdx.y) * BN;

    TileAccumulator<T, BM, BN, kLessonThreads> acc;
    acc.zero();
    typename K::Loop::Accumulator g, u;
    for (std::int64_t i0 = 0; i0 < shape.I; i0 += BI) {
        // g and u are zero beyond I and beyond M (zero-padded tiles), so hidden is too.
        K::Loop::run(g, u, x, gate, up, shape, m0, i0, smem, packed);
        g.store(staging, K::kStagingLd);
        loadTile<T, BN, BI, kLessonThreads>(ds, down, shape.I, n0, i0, shape.H, shape.I, packed);
        __syncthreads();
        for (int e = threadIdx.x; e < BM * BI; e += kLessonThreads)
            hs[e / BI * kHiddenLd + e % BI] =
                fromFloat<T>(staging[e / BI * K::kStagingLd + e % BI]);
        __syncthreads();
        acc.template mma<BI>(hs, kHiddenLd, ds, kSmemLd<T, BI>);
        __syncthreads();
    }
    acc.store(staging, K::kStagingLd);
    __syncthreads();
    storeTile<T, BM, BN, kLessonThreads>(out, shape.H, staging, K::kStagingLd, m0, n0, shape.M,
                                         shape.H);
}

template <typename T, int BM, int BN, int BH, int BI>
Status launchTiles(const MlpShape& shape, const void* x, const void* gate, const void* up,
                   const void* down, void* out, bool packed, cudaStream_t stream) {
    constexpr int kSmem = LessonKernel<T, BM, BN, BH, BI>::kSmemBytes;
    auto* kernel = swigluMlpLesson<T, BM, BN, BH, BI>;
    if (Status s = cudaStatus(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem),
            "cudaFuncSetAttribute (lesson kernel shared memory)");
        !s)
        return s;
    const dim3 grid(static_cast<unsigned>(ceilDiv(shape.M, BM)),
                    static_cast<unsigned>(ceilDiv(shape.H, BN)));
    kernel<<<grid, kLessonThreads, kSmem, stream>>>(
        static_cast<const T*>(x), static_cast<const T*>(gate), static_cast<const T*>(up),
        static_cast<const T*>(down), static_cast<T*>(out), shape, packed);
    return launchStatus("swiglu_mlp_lesson launch");
}

}  // namespace

bool lessonTilesCompiled(const LessonTiles& tiles) {
    return tiles == kLessonDefaultTiles;
}

Status launchLessonFused(MlpDtype dtype, const LessonTiles& tiles, const MlpShape& shape,
                         const void* x, const void* gate, const void* up, const void* down,
                         void* out, cudaStream_t stream) {
    if (!lessonTilesCompiled(tiles))
        return {ErrorCode::InvalidArgument,
                "the lesson kernel is compiled for its default tiles only"};
    const bool packed = packAligned(dtype, shape.H, shape.I);
    return withElementType(dtype, [&](auto* type) {
        using T = std::remove_pointer_t<decltype(type)>;
        constexpr LessonTiles t = kLessonDefaultTiles;
        return launchTiles<T, t.blockM, t.blockN, t.blockH, t.blockI>(shape, x, gate, up, down, out,
                                                                      packed, stream);
    });
}

}  // namespace fusescope::mlp
