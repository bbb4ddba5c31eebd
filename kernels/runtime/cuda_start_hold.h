#pragma once
// Holds a stream until the host has enqueued all the work it times. On an idle GPU the first
// kernel starts as soon as it is enqueued, so the host's time to enqueue the rest (a few
// microseconds a launch) would be timed with the kernels; in a framework's busy stream or a CUDA
// graph it is not. CUDA code only (kernels/runtime).
#include <cuda_runtime_api.h>

#include "core/status.h"

namespace fusescope {

class CudaStartHold {
  public:
    CudaStartHold() = default;
    CudaStartHold(const CudaStartHold&) = delete;
    CudaStartHold& operator=(const CudaStartHold&) = delete;
    ~CudaStartHold();

    // Enqueues a one-thread kernel that waits until release() (or a timeout of 200 ms, after
    // which the work runs as enqueued: timed a little long, never stuck).
    Status hold(cudaStream_t stream);
    // Lets the held stream go on; call it after enqueuing, before waiting for the stream.
    void release();

  private:
    Status ensureFlag();

    volatile unsigned* hostFlag_ = nullptr;  // mapped, pinned host memory
    unsigned* deviceFlag_ = nullptr;         // the same word, as the GPU addresses it
};

}  // namespace fusescope
