#include <cuda_runtime_api.h>

#include <utility>

#include "platform/cuda_error.h"
#include "spin_execution.h"

namespace fusescope::testing_support {
namespace {

__device__ unsigned long long globalNanoseconds() {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    return now;
}

__global__ void spin(unsigned* counters, unsigned long long nanoseconds) {
    atomicAdd_system(&counters[0], 1u);
    __threadfence_system();
    const unsigned long long start = globalNanoseconds();
    while (globalNanoseconds() - start < nanoseconds) __nanosleep(1000);
    atomicAdd_system(&counters[1], 1u);
    __threadfence_system();
}

class SpinExecution final : public KernelExecution {
  public:
    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        const unsigned long long nanoseconds = call.problem->dimension("spin_us") * 1000ull;
        spin<<<1, 1, 0, static_cast<cudaStream_t>(target.stream)>>>(
            static_cast<unsigned*>(call.buffers.at(0)), nanoseconds);
        return cudaStatus(cudaGetLastError(), "launching the spin kernel");
    }
};

}  // namespace

Result<std::unique_ptr<SpinCounters>> SpinCounters::create() {
    std::unique_ptr<SpinCounters> counters(new SpinCounters());
    void* host = nullptr;
    if (Status s = cudaStatus(cudaHostAlloc(&host, 2 * sizeof(unsigned), cudaHostAllocMapped),
                              "allocating the spin counters");
        !s)
        return s;
    counters->host_ = static_cast<unsigned*>(host);
    counters->reset();
    if (Status s = cudaStatus(cudaHostGetDevicePointer(&counters->device_, host, 0),
                              "mapping the spin counters");
        !s)
        return s;
    return Result<std::unique_ptr<SpinCounters>>(std::move(counters));
}

SpinCounters::~SpinCounters() {
    if (host_ != nullptr) (void)cudaFreeHost(host_);
}

unsigned SpinCounters::started() const {
    return __atomic_load_n(&host_[0], __ATOMIC_ACQUIRE);
}

unsigned SpinCounters::finished() const {
    return __atomic_load_n(&host_[1], __ATOMIC_ACQUIRE);
}

void SpinCounters::reset() {
    __atomic_store_n(&host_[0], 0u, __ATOMIC_RELEASE);
    __atomic_store_n(&host_[1], 0u, __ATOMIC_RELEASE);
}

std::unique_ptr<KernelExecution> makeSpinExecution() {
    return std::make_unique<SpinExecution>();
}

}  // namespace fusescope::testing_support
