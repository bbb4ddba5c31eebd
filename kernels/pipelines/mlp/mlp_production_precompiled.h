#pragma once
// The production fusion's bfloat16 mma.sync prefill kernel at the default tiles, compiled ahead
// of time from the run-time source (mlp_production_precompiled.cu). CUDA code only.
#include <cuda_runtime.h>

namespace fusescope::mlp {

// 3 stages of a 128 x 64 x tile and the 128 x 64 gate and up tiles: 144 KiB, one block an SM.
inline constexpr int kProductionPrecompiledSharedBytes = 3 * (128 + 2 * 128) * 64 * 2;

// The _full (whole tiles, no bounds checks) or _edge entry point, for its attributes.
const void* productionPrecompiledKernel(bool full);

cudaError_t launchProductionPrecompiled(bool full, dim3 grid, cudaStream_t stream, const void* x,
                                        const void* gate, const void* up, void* h, int M, int H,
                                        int I, bool aligned);

}  // namespace fusescope::mlp
