#pragma once
// Every MLP variant on the CPU, multithreaded: the same stages, the same intermediates in memory
// and the same rounding to the storage type as the GPU variant, in float32 arithmetic. Slower
// than the GPU, but a second implementation that the reference checks.
#include "core/status.h"
#include "pipelines/mlp/mlp_host_data.h"

namespace fusescope::mlp {

// Why these inputs, output and tiles cannot run this shape; Status::ok() when they can.
Status checkHostProblem(const MlpShape& shape, const MlpHostInputs& inputs, const HostMatrix& out,
                        const LessonTiles& tiles);

// Writes every element of `out` (M x H, the inputs' dtype).
Status runMlpCpu(MlpVariant variant, const MlpShape& shape, const MlpHostInputs& inputs,
                 HostMatrix& out, int threads, const LessonTiles& tiles = kLessonDefaultTiles);

}  // namespace fusescope::mlp
