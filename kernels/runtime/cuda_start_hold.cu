#include "runtime/cuda_start_hold.h"

#include "platform/cuda_error.h"

namespace fusescope {
namespace {

constexpr unsigned long long kHoldTimeoutNs = 200'000'000;

__device__ unsigned long long globalNanoseconds() {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    return now;
}

__global__ void holdUntilReleased(const volatile unsigned* released) {
    const unsigned long long start = globalNanoseconds();
    while (*released == 0u && globalNanoseconds() - start < kHoldTimeoutNs) __nanosleep(500);
}

}  // namespace

CudaStartHold::~CudaStartHold() {
    // Nothing to report to from a destructor.
    if (hostFlag_ != nullptr) (void)cudaFreeHost(const_cast<unsigned*>(hostFlag_));
}

Status CudaStartHold::ensureFlag() {
    if (hostFlag_ != nullptr) return Status::ok();
    void* host = nullptr;
    if (Status s = cudaStatus(cudaHostAlloc(&host, sizeof(unsigned), cudaHostAllocMapped),
                              "allocating the timing start flag in pinned host memory");
        !s)
        return s;
    void* device = nullptr;
    if (Status s = cudaStatus(cudaHostGetDevicePointer(&device, host, 0),
                              "mapping the timing start flag for the GPU");
        !s) {
        (void)cudaFreeHost(host);
        return s;
    }
    hostFlag_ = static_cast<volatile unsigned*>(host);
    deviceFlag_ = static_cast<unsigned*>(device);
    return Status::ok();
}

Status CudaStartHold::hold(cudaStream_t stream) {
    if (Status s = ensureFlag(); !s) return s;
    *hostFlag_ = 0u;
    holdUntilReleased<<<1, 1, 0, stream>>>(deviceFlag_);
    return cudaStatus(cudaGetLastError(), "holding the stream until the timed work is enqueued");
}

void CudaStartHold::release() {
    if (hostFlag_ != nullptr)
        __atomic_store_n(const_cast<unsigned*>(hostFlag_), 1u, __ATOMIC_RELEASE);
}

}  // namespace fusescope
