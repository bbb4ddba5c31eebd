#pragma once
// The CPU backend's execution of a kernel of an expression's variant: runCpuKernel on the
// backend's threads and instruction set at the problem's vector width. Its blocks shrink with the
// kernel's operations, so a long chain asks the cancel token as often as a short one.
#include <memory>

#include "expr/expression.h"
#include "expr/variant_plan.h"
#include "pipelines/kernel_execution.h"

namespace fusescope::expr {

// `program` and `plan` must outlive the execution (the registration holds them).
std::unique_ptr<KernelExecution> makeExpressionCpuExecution(std::shared_ptr<const void> owner,
                                                            const Program& program,
                                                            const VariantPlan& plan,
                                                            int kernelIndex);

}  // namespace fusescope::expr
