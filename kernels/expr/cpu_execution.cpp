#include "expr/cpu_execution.h"

#include "expr/cpu_kernel.h"
#include "pipelines/registry.h"

namespace fusescope::expr {
namespace {

class ExpressionCpuExecution final : public KernelExecution {
  public:
    ExpressionCpuExecution(std::shared_ptr<const void> owner, const Program& program,
                           const VariantPlan& plan, int kernelIndex)
        : owner_(std::move(owner)), program_(program), plan_(plan), kernelIndex_(kernelIndex) {}

    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        const int width = call.problem->tuningValue(kVectorWidthTuning);
        if (!isSupportedVectorWidth(width))
            return Status(ErrorCode::InvalidArgument,
                          "no CPU code for vector width " + std::to_string(width));
        const CpuKernelRun run{call.problem->dimension(kElementCountDimension), width,
                               target.hostThreads, target.instructionSet, target.cancel};
        return runCpuKernel(program_, plan_, kernelIndex_, call.buffers.data(), run);
    }

  private:
    std::shared_ptr<const void> owner_;  // keeps program_ and plan_ alive
    const Program& program_;
    const VariantPlan& plan_;
    int kernelIndex_;
};

}  // namespace

std::unique_ptr<KernelExecution> makeExpressionCpuExecution(std::shared_ptr<const void> owner,
                                                            const Program& program,
                                                            const VariantPlan& plan,
                                                            int kernelIndex) {
    return std::make_unique<ExpressionCpuExecution>(std::move(owner), program, plan, kernelIndex);
}

}  // namespace fusescope::expr
