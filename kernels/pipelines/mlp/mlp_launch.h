#pragma once
// Launchers of the MLP's own kernels (internal to kernels/pipelines/mlp). Each checks the launch
// and returns its Status; none waits.
#include <cuda_runtime_api.h>

#include "core/status.h"
#include "pipelines/kernel_execution.h"
#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp {

Status launchSiluInPlace(DType dtype, void* g, std::int64_t n, cudaStream_t stream);
Status launchMultiply(DType dtype, const void* a, const void* b, void* out, std::int64_t n,
                      cudaStream_t stream);
// h[m][i] = silu(gu[m][i]) * gu[m][I + i], gu being M x 2I.
Status launchSiluMulRows(DType dtype, const void* gu, void* h, std::int64_t M, std::int64_t I,
                         cudaStream_t stream);

// Whether the program has the lesson kernel precompiled for these tiles in this dtype (tf32 runs
// only the run-time compiled kernel, mlp_lesson_tiled.cu).
bool lessonTilesCompiled(const LessonTiles& tiles, DType dtype);
// Registers, spills, shared memory and occupancy of the precompiled lesson kernel this shape runs.
KernelResources lessonFusedResources(DType dtype, const MlpShape& shape);
Status launchLessonFused(DType dtype, const LessonTiles& tiles, const MlpShape& shape,
                         const void* x, const void* gate, const void* up, const void* down,
                         void* out, cudaStream_t stream);

// Registers, spills, shared memory and occupancy of the precompiled gate_up kernel this shape
// runs (production, prefill).
KernelResources gateUpSiluResources(DType dtype, const MlpShape& shape);
// Production, prefill: h = silu(x gate^T) * (x up^T), g and u kept in registers.
Status launchGateUpSilu(DType dtype, const MlpShape& shape, const void* x, const void* gate,
                        const void* up, void* h, cudaStream_t stream);
// Production, decode (M <= kDecodeMaxRows): weight-streaming GEMVs over every SM.
Status launchGemvGateUpSilu(DType dtype, const MlpShape& shape, const void* x, const void* gate,
                            const void* up, void* h, cudaStream_t stream);
Status launchGemvDown(DType dtype, const MlpShape& shape, const void* h, const void* down,
                      void* out, cudaStream_t stream);

}  // namespace fusescope::mlp
