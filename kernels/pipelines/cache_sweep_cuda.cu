// The cache sweep on the GPU: every SM reads its share of the buffer in 16-byte loads that
// allocate in the L2 (ld.global.cg), so the sweep replaces the L2's lines with clean ones.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "pipelines/cache_sweep_execution.h"
#include "pipelines/registry.h"
#include "platform/cuda_error.h"

namespace fusescope {
namespace {

constexpr int kSweepThreads = 256;
constexpr int kSweepBlocksPerMultiprocessor = 8;

__global__ void sweepRead(uint4* words, std::uint64_t count) {
    std::uint32_t folded = 0;
    const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
    for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
         i += stride) {
        const uint4 word = __ldcg(words + i);
        folded ^= word.x ^ word.y ^ word.z ^ word.w;
    }
    // Using the result keeps the loads; a zero-filled buffer never folds to all ones.
    if (folded == 0xffffffffu) words[0].x = 0;
}

class CacheSweepCudaExecution final : public KernelExecution {
  public:
    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        if (call.buffers.empty() || call.buffers[0] == nullptr)
            return Status(ErrorCode::InvalidArgument, "the cache sweep needs its buffer");
        const std::uint64_t words = call.problem->dimension(kElementCountDimension) / 4;
        const int blocks = std::max(1, target.multiprocessors * kSweepBlocksPerMultiprocessor);
        sweepRead<<<blocks, kSweepThreads, 0, static_cast<cudaStream_t>(target.stream)>>>(
            static_cast<uint4*>(call.buffers[0]), words);
        return cudaStatus(cudaGetLastError(), "sweeping the L2 before a counter range");
    }
};

}  // namespace

void addCacheSweepCudaExecution(ExecutionCatalog& catalog) {
    catalog.emplace(std::string(kCacheSweepExecution), std::make_unique<CacheSweepCudaExecution>());
}

}  // namespace fusescope
