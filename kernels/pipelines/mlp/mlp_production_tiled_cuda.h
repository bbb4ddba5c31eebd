#pragma once
// The run-time compiled production gate_up kernel on the current CUDA device, loaded as every
// run-time compiled MLP kernel is (mlp_tiled_module_cuda.h). Only the thread that owns CUDA calls
// these.
#include "core/status.h"
#include "pipelines/kernel_execution.h"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_shape.h"
#include "pipelines/mlp/mlp_tiled_module_cuda.h"

namespace fusescope::mlp {

// The compile request the current device needs for these tiles.
Result<CompileRequest> productionTiledRequestForDevice(const production::Tiles& tiles);

// Compiles (or finds) and loads the kernel for these tiles; the error names NVRTC's absence
// ("NVRTC not found: ...") or the compiler's log. A cancel while it compiles returns Cancelled
// at once.
Result<const TiledKernel*> productionTiledKernel(const production::Tiles& tiles,
                                                 const CancelToken& cancel = {});

// h = silu(x gate^T) * (x up^T) in bfloat16, with the loaded kernel's tiles.
Status launchProductionTiled(const TiledKernel& kernel, const production::Tiles& tiles,
                             const MlpShape& shape, const void* x, const void* gate, const void* up,
                             void* h, void* stream);

// Registers, spills, shared memory and occupancy of the entry point this shape runs.
KernelResources productionTiledResources(const TiledKernel& kernel, const production::Tiles& tiles,
                                         const MlpShape& shape);

}  // namespace fusescope::mlp
