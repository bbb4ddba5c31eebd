#pragma once
// The production fusion's prefill gate_up kernel for Hopper (mlp_gate_up_hopper.cu): TMA and
// wgmma at tiles of 128 x 128 or 128 x 112 (production::gateUpLaunchTiles), built for sm_90a.
// CUDA code only.
#include <cuda_runtime_api.h>

#include "core/status.h"
#include "pipelines/cuda_kernel_resources.h"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp {

// Whether the current device and the shape can run it: compute capability 9.0 (the code is
// sm_90a only), rows of x, gate and up at 16-byte strides, and a tile count that fits an int.
bool gateUpHopperRuns(const MlpShape& shape);
KernelResources gateUpHopperResources(const MlpShape& shape);
// h = silu(x gate^T) * (x up^T), bfloat16, float32 accumulation.
Status launchGateUpHopper(const MlpShape& shape, const void* x, const void* gate, const void* up,
                          void* h, cudaStream_t stream);

}  // namespace fusescope::mlp
