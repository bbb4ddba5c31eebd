#pragma once
// The production fusion's prefill kernel (gate_up GEMM with the SiLU*up epilogue) for any
// allowed tiles, compiled at run time (mlp_production_tiled.cu, embedded in the program by
// CMake). This part needs no CUDA: the source, the compile request for a device, the kernel's
// shared memory and why tiles are refused; mlp_production_tiled_cuda.cpp loads and launches.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_shape.h"
#include "platform/runtime_compiler.h"

namespace fusescope::mlp {

inline constexpr int kProductionTiledThreads = 256;
inline constexpr int kProductionTiledStages = 3;
inline constexpr std::string_view kProductionTiledFullKernel = "mlp_gate_up_silu_tiled_full";
inline constexpr std::string_view kProductionTiledEdgeKernel = "mlp_gate_up_silu_tiled_edge";

std::string_view productionTiledSource();

// Shared memory of the kernel: 3 stages of the x tile and the gate and up tiles, 64 deep.
std::uint64_t productionTiledSharedBytes(const production::Tiles& tiles);
// The blocks per SM the kernel's registers are bounded for: 2 where two blocks' shared memory
// fits the SM (the precompiled kernel's bound), else 1.
int productionTiledMinBlocks(const production::Tiles& tiles,
                             std::uint64_t sharedBytesPerMultiprocessor);

// What NVRTC compiles for these tiles on a device of compute capability major.minor.
CompileRequest productionTiledCompileRequest(const production::Tiles& tiles, int minBlocks,
                                             int computeMajor, int computeMinor);

// Why the production fusion cannot run in this dtype on the GPU (tf32: none of its kernels has a
// TF32 path), or nothing.
std::optional<std::string> productionDtypeRefusal(DType dtype);

// Why these tiles cannot run (the dtype's refusal; a value outside the allowed ones; float32,
// which runs only the precompiled CUDA-core kernel), or nothing.
std::optional<std::string> productionTilesRefusal(const production::Tiles& tiles, DType dtype);

// Whether shapes are whole tiles, so the _full kernel (no bounds checks) runs.
bool productionTiledFull(const production::Tiles& tiles, const MlpShape& shape);

// The gate_up kernel runs compiled at run time: at prefill sizes (decode streams weights with
// GEMV kernels the tiles do not apply to) for tiles other than the precompiled ones, or for every
// tile while a tile sweep makes even the default tiles compile (lessonTilesAlwaysCompiled()).
bool productionRunsCompiled(const production::Tiles& tiles, const MlpShape& shape, DType dtype);

}  // namespace fusescope::mlp
