// The cache sweep on the CPU backend: the host threads read the buffer once.
#include <atomic>

#include "pipelines/cache_sweep_execution.h"
#include "pipelines/registry.h"
#include "platform/parallel.h"

namespace fusescope {
namespace {

class CacheSweepCpuExecution final : public KernelExecution {
  public:
    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        if (call.buffers.empty() || call.buffers[0] == nullptr)
            return Status(ErrorCode::InvalidArgument, "the cache sweep needs its buffer");
        auto* words = static_cast<std::uint32_t*>(call.buffers[0]);
        const std::uint64_t count = call.problem->dimension(kElementCountDimension);
        std::atomic<std::uint32_t> folded{0};
        parallelFor(count, target.hostThreads, [&](std::uint64_t begin, std::uint64_t end) {
            std::uint32_t local = 0;
            for (std::uint64_t i = begin; i < end; ++i) local ^= words[i];
            folded.fetch_xor(local, std::memory_order_relaxed);
        });
        // Reading the result keeps the reads; a zero-filled buffer never folds to all ones.
        if (folded.load() == 0xffffffffu) words[0] = 0;
        return Status::ok();
    }
};

}  // namespace

void addCacheSweepCpuExecution(ExecutionCatalog& catalog) {
    catalog.emplace(std::string(kCacheSweepExecution), std::make_unique<CacheSweepCpuExecution>());
}

}  // namespace fusescope
