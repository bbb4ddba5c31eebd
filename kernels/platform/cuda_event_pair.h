#pragma once
// Two CUDA events around launches, for timing them; destroyed with the object (a destructor has
// nowhere to report cudaEventDestroy's error). Only the thread that owns CUDA uses one.
#include <cuda_runtime_api.h>

#include "core/status.h"
#include "platform/cuda_error.h"

namespace fusescope {

class CudaEventPair {
  public:
    CudaEventPair() = default;
    CudaEventPair(const CudaEventPair&) = delete;
    CudaEventPair& operator=(const CudaEventPair&) = delete;
    ~CudaEventPair() {
        if (start_) cudaEventDestroy(start_);
        if (stop_) cudaEventDestroy(stop_);
    }

    Status create() {
        if (Status s = cudaStatus(cudaEventCreate(&start_), "creating a timing event"); !s)
            return s;
        return cudaStatus(cudaEventCreate(&stop_), "creating a timing event");
    }
    cudaEvent_t start() const { return start_; }
    cudaEvent_t stop() const { return stop_; }

    // Milliseconds from start to stop, both recorded and stop reached.
    Result<double> elapsedMs() const {
        float ms = 0.0f;
        if (Status s =
                cudaStatus(cudaEventElapsedTime(&ms, start_, stop_), "reading a timing event");
            !s)
            return s;
        return static_cast<double>(ms);
    }

  private:
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
};

}  // namespace fusescope
