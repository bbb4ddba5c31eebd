// The CPU backend's catalog: the elementwise families' kernel tables (cpu_kernel_table.h) and
// the MLP's stages; and the elementwise execution (elementwise_cpu_execution.h).
#include <string>

#include "pipelines/cache_sweep_execution.h"
#include "pipelines/elementwise_cpu_execution.h"
#include "pipelines/elementwise_family.h"
#include "pipelines/kernel_execution.h"
#include "pipelines/mlp/mlp_executions.h"
#include "platform/parallel.h"

namespace fusescope {
namespace {

class ElementwiseCpuExecution final : public KernelExecution {
  public:
    ElementwiseCpuExecution(std::string name, ElementRangePicker pick)
        : name_(std::move(name)), pick_(std::move(pick)) {}

    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        const int width = call.problem->tuningValue(kVectorWidthTuning);
        const ElementRangeKernel kernel = pick_(width, target.instructionSet);
        if (!kernel)
            return Status(ErrorCode::InvalidArgument, "the CPU backend has no " + name_ +
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
    std::string name_;
    ElementRangePicker pick_;
};

}  // namespace

std::unique_ptr<KernelExecution> makeElementwiseCpuExecution(std::string name,
                                                             ElementRangePicker pick) {
    return std::make_unique<ElementwiseCpuExecution>(std::move(name), std::move(pick));
}

ExecutionCatalog makeCpuExecutions() {
    ExecutionCatalog catalog;
    for (const CpuKernelEntry& entry : baselineCpuKernels())
        catalog.emplace(
            entry.execution,
            makeElementwiseCpuExecution(entry.execution, [key = std::string(entry.execution)](
                                                             int width, CpuInstructionSet set) {
                const CpuKernelFn kernel = cpuKernel(key, width, set);
                return kernel ? ElementRangeKernel(kernel) : ElementRangeKernel();
            }));
    mlp::addMlpCpuExecutions(catalog);
    addCacheSweepCpuExecution(catalog);
    return catalog;
}

}  // namespace fusescope
