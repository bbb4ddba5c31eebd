#pragma once
// The run-time compiled lesson kernel on the current CUDA device, loaded as every run-time
// compiled MLP kernel is (mlp_tiled_module_cuda.h). Only the thread that owns CUDA calls these.
#include <cstdint>
#include <string>

#include "core/status.h"
#include "pipelines/kernel_execution.h"
#include "pipelines/mlp/mlp_shape.h"
#include "pipelines/mlp/mlp_tiled_module_cuda.h"

namespace fusescope::mlp {

using LessonTiledKernel = TiledKernel;

// Compiles (or finds) and loads the kernel for these tiles and shape (the shape's grid decides
// the copy pipeline's depth); the error names NVRTC's absence ("NVRTC not found: ...") or the
// compiler's log.
Result<const LessonTiledKernel*> lessonTiledKernel(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape);

// The compile request the current device needs for these tiles and shape (architecture and
// stages).
Result<CompileRequest> lessonTiledRequestForDevice(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape);

Status launchLessonTiled(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                         const MlpShape& shape, const void* x, const void* gate, const void* up,
                         const void* down, void* out, void* stream);

// Registers, spills, shared memory and occupancy of the entry point this shape runs.
KernelResources lessonTiledResources(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                                     const MlpShape& shape);

}  // namespace fusescope::mlp
