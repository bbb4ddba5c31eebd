// The production variant's prefill kernel: gate and up as one GEMM whose epilogue applies
// SiLU*up, so g and u never leave registers and h is written once. Blocks walk the M tiles
// fastest, so the blocks that share one tile of gate and up run together and the L2 serves the
// weights' re-reads. bfloat16 runs on the tensor cores: on compute capability 9.0 the Hopper
// kernel (mlp_gate_up_hopper.cu, TMA and wgmma), elsewhere the mma.sync kernel NVRTC compiles for
// other tiles, built ahead of time at the default tiles (mlp_production_precompiled.cu). float32
// runs on the CUDA cores (no TF32).
#include <algorithm>

#include "pipelines/cuda_kernel_resources.h"
#include "pipelines/mlp/mlp_async_copy.cuh"
#include "pipelines/mlp/mlp_gate_up_hopper.h"
#include "pipelines/mlp/mlp_launch.h"
#include "pipelines/mlp/mlp_production_precompiled.h"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_tile_mma.cuh"
#include "platform/kernel_shared_memory.h"

namespace fusescope::mlp {
namespace {

using namespace device;

constexpr int kThreads = 256;
template <typename T>
inline constexpr int kStepH = std::is_same_v<T, float> ? 16 : 32;

template <typename T>
struct GateUpKernel {
    using Loop = GateUpLoop<T, production::kTileM, production::kTileI, kStepH<T>, kThreads>;
    static constexpr int kStagingLd = production::kTileI + 4;
    static constexpr int kStagingBytes = production::kTileM * kStagingLd * 4;
    // The staging tile reuses the loop's shared memory once the loop is done.
    static constexpr int kSmemBytes =
        Loop::kSmemBytes > kStagingBytes ? Loop::kSmemBytes : kStagingBytes;
};

template <typename T>
__global__ void __launch_bounds__(kThreads)
    gemmGateUpSilu(const T* __restrict__ x, const T* __restrict__ gate, const T* __restrict__ up,
                   T* __restrict__ h, MlpShape shape, bool packed) {
    using K = GateUpKernel<T>;
    constexpr int BM = production::kTileM, BI = production::kTileI;
    extern __shared__ __align__(128) unsigned char smem[];
    const std::int64_t m0 = static_cast<std::int64_t>(blockIdx.x) * BM;
    const std::int64_t i0 = static_cast<std::int64_t>(blockIdx.y) * BI;
    typename K::Loop::Accumulator g, u;
    K::Loop::run(g, u, x, gate, up, shape, m0, i0, smem, packed);
    float* staging = reinterpret_cast<float*>(smem);
    g.store(staging, K::kStagingLd);
    __syncthreads();
    storeTile<T, BM, BI, kThreads>(h, shape.I, staging, K::kStagingLd, m0, i0, shape.M, shape.I);
}

dim3 gridOf(const production::Tiles& tiles, const MlpShape& shape) {
    return dim3(static_cast<unsigned>(ceilDiv(shape.M, tiles.tileM)),
                static_cast<unsigned>(ceilDiv(shape.I, tiles.tileI)));
}

// Registers, spills and occupancy of a precompiled gate_up kernel at its launch's shared memory.
KernelResources resourcesOf(const void* kernel, int smem, const production::Tiles& tiles,
                            const MlpShape& shape) {
    const dim3 grid = gridOf(tiles, shape);
    return kernelResourcesOf(kernel, kThreads, smem, static_cast<std::int64_t>(grid.x) * grid.y);
}

// Whole tiles of the bfloat16 kernel (M, H and I multiples of its tiles and of 64): the entry
// point without bounds checks runs.
bool wholeTiles(const MlpShape& shape) {
    return shape.M % production::kDefaultTiles.tileM == 0 && shape.H % 64 == 0 &&
           shape.I % production::kDefaultTiles.tileI == 0;
}

}  // namespace

KernelResources gateUpSiluResources(DType dtype, const MlpShape& shape) {
    if (dtype == DType::Bfloat16 && gateUpHopperRuns(shape)) return gateUpHopperResources(shape);
    if (!storesBfloat16(dtype))
        return resourcesOf(reinterpret_cast<const void*>(&gemmGateUpSilu<float>),
                           GateUpKernel<float>::kSmemBytes, production::kDefaultTiles, shape);
    return resourcesOf(productionPrecompiledKernel(wholeTiles(shape)),
                       kProductionPrecompiledSharedBytes, production::kDefaultTiles, shape);
}

Status launchGateUpSilu(DType dtype, const MlpShape& shape, const void* x, const void* gate,
                        const void* up, void* h, cudaStream_t stream) {
    if (dtype == DType::Bfloat16 && gateUpHopperRuns(shape))
        return launchGateUpHopper(shape, x, gate, up, h, stream);
    const bool packed = packAligned(dtype, shape.H);
    if (dtype == DType::Bfloat16)
        return cudaStatus(launchProductionPrecompiled(
                              wholeTiles(shape), gridOf(production::kDefaultTiles, shape), stream,
                              x, gate, up, h, static_cast<int>(shape.M), static_cast<int>(shape.H),
                              static_cast<int>(shape.I), packed),
                          "gemm_gate_up_silu launch");
    constexpr int kSmem = GateUpKernel<float>::kSmemBytes;
    auto* kernel = gemmGateUpSilu<float>;
    if (Status s = allowDynamicSharedMemory(kernel, kSmem, "gate_up kernel"); !s) return s;
    kernel<<<gridOf(production::kDefaultTiles, shape), kThreads, kSmem, stream>>>(
        static_cast<const float*>(x), static_cast<const float*>(gate),
        static_cast<const float*>(up), static_cast<float*>(h), shape, packed);
    return launchStatus("gemm_gate_up_silu launch");
}

}  // namespace fusescope::mlp
