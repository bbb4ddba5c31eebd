// The production fusion's bfloat16 mma.sync prefill kernel at its default tiles, compiled ahead of
// time from the one source NVRTC compiles for the other tiles (mlp_production_tiled.cu), so the two
// paths cannot drift apart.
#define FS_TM 128
#define FS_TI 128
#define FS_MIN_BLOCKS 1
// The wrappers first, as the embedded source has them in front of it.
#include "pipelines/mlp/mlp_tiled_prelude.cuh"

#include "pipelines/mlp/mlp_production_tiled.cu"

#include "pipelines/mlp/mlp_production_precompiled.h"
#include "pipelines/mlp/mlp_production_tiles.h"

static_assert(FS_TM == fusescope::mlp::production::kTileM &&
                  FS_TI == fusescope::mlp::production::kTileI,
              "the precompiled kernel is the default tiles'");
static_assert(FS_STAGES * (FS_TM + 2 * FS_TI) * FS_BK * 2 ==
                  fusescope::mlp::kProductionPrecompiledSharedBytes,
              "the launch gives the kernel the shared memory its stages take");

namespace fusescope::mlp {

const void* productionPrecompiledKernel(bool full) {
    return full ? reinterpret_cast<const void*>(&mlp_gate_up_silu_tiled_full)
                : reinterpret_cast<const void*>(&mlp_gate_up_silu_tiled_edge);
}

cudaError_t launchProductionPrecompiled(bool full, dim3 grid, cudaStream_t stream, const void* x,
                                        const void* gate, const void* up, void* h, int M, int H,
                                        int I, bool aligned) {
    auto* kernel = full ? &mlp_gate_up_silu_tiled_full : &mlp_gate_up_silu_tiled_edge;
    if (const cudaError_t error = cudaFuncSetAttribute(
            kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kProductionPrecompiledSharedBytes);
        error != cudaSuccess)
        return error;
    kernel<<<grid, FS_THREADS, kProductionPrecompiledSharedBytes, stream>>>(
        static_cast<const fs_bf16*>(x), static_cast<const fs_bf16*>(gate),
        static_cast<const fs_bf16*>(up), static_cast<fs_bf16*>(h), M, H, I, aligned);
    return cudaGetLastError();
}

}  // namespace fusescope::mlp
