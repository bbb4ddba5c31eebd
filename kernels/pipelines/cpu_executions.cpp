// The CPU backend's catalog: the elementwise families' kernel tables (cpu_kernel_table.h) and
// the MLP's stages.
#include <string>

#include "pipelines/cache_sweep_execution.h"
#include "pipelines/elementwise_family.h"
#include "pipelines/kernel_execution.h"
#include "pipelines/mlp/mlp_executions.h"
#include "platform/parallel.h"

namespace fusescope {
namespace {

// An elementwise kernel: N elements split over the host threads, scalar or SIMD code by the
// vector width, in the instruction set the backend chose.
class ElementwiseCpuExecution final : public KernelExecution {
  public:
    explicit ElementwiseCpuExecution(std::string key) : key_(std::move(key)) {}

    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        const int width = call.problem->tuningValue(kVectorWidthTuning);
        const CpuKernelFn kernel = cpuKernel(key_, width, target.instructionSet);
        if (!kernel)
            return Status(ErrorCode::InvalidArgument, "the CPU backend has no " + key_ +
                                                          " kernel for vector width " +
                                                          std::to_string(width));
        void* const* args = call.buffers.data();
        // Blocks of 16 MiB an array, so that a kernel of two sweeps (scratch) still sends its
        // intermediate through memory between them: the threads' blocks together stay larger
        // than the last-level cache.
        constexpr std::uint64_t kBlockElements = 1u << 22;
        if (!parallelFor(
                call.problem->dimension(kElementCountDimension), target.hostThreads, target.cancel,
                1, [&](std::uint64_t begin, std::uint64_t end) { kernel(args, begin, end); },
                kBlockElements))
            return cancelledStatus();
        return Status::ok();
    }

  private:
    std::string key_;
};

}  // namespace

ExecutionCatalog makeCpuExecutions() {
    ExecutionCatalog catalog;
    for (const CpuKernelEntry& entry : baselineCpuKernels())
        catalog.emplace(entry.execution,
                        std::make_unique<ElementwiseCpuExecution>(entry.execution));
    mlp::addMlpCpuExecutions(catalog);
    addCacheSweepCpuExecution(catalog);
    return catalog;
}

}  // namespace fusescope
