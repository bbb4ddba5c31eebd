#pragma once
// Every MLP variant on the CPU, multithreaded: the same kernels as the GPU variant (one stage per
// kernel of the traffic model), the same intermediates in memory and the same rounding to the
// storage type, in float32 arithmetic. Slower than the GPU, but a second implementation that the
// reference checks.
#include <cstddef>

#include "core/cancel_token.h"
#include "core/status.h"
#include "pipelines/mlp/mlp_host_data.h"

namespace fusescope::mlp {

// The buffers of one problem in host memory, in the storage dtype. gateUp holds gate's I rows,
// then up's; scratch holds the variant's intermediates as on the GPU (mlp_cuda.h).
struct MlpHostPointers {
    const void* x = nullptr;
    const void* gateUp = nullptr;
    const void* down = nullptr;
    void* scratch = nullptr;
    void* out = nullptr;
};

// Why these inputs, output and tiles cannot run this shape; Status::ok() when they can.
Status checkHostProblem(const MlpShape& shape, const MlpHostInputs& inputs, const HostMatrix& out,
                        const LessonTiles& tiles);

// Runs kernel `kernelIndex` of the variant (mlpTraffic(...)[kernelIndex]). Asks `cancel` per
// block of work and returns ErrorCode::Cancelled, the output incomplete, once it is set.
Status runMlpCpuKernel(MlpVariant variant, std::size_t kernelIndex, const MlpShape& shape,
                       MlpDtype dtype, const MlpHostPointers& buffers, int threads,
                       const LessonTiles& tiles = kLessonDefaultTiles,
                       const CancelToken& cancel = {});

// Every kernel of the variant; writes every element of `out` (M x H, the inputs' dtype).
Status runMlpCpu(MlpVariant variant, const MlpShape& shape, const MlpHostInputs& inputs,
                 HostMatrix& out, int threads, const LessonTiles& tiles = kLessonDefaultTiles,
                 const CancelToken& cancel = {});

}  // namespace fusescope::mlp
