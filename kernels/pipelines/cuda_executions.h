#pragma once
// Building the CUDA backend's catalog (CUDA builds only).
#include <memory>
#include <span>

#include "pipelines/cuda_kernels.h"
#include "pipelines/kernel_execution.h"

namespace fusescope {

// The execution of one elementwise entry; its kernels' names must outlive it.
std::unique_ptr<KernelExecution> makeElementwiseCudaExecution(const CudaElementwiseEntry& entry);

void addElementwiseCudaExecutions(ExecutionCatalog& catalog,
                                  std::span<const CudaElementwiseEntry> entries);

}  // namespace fusescope
