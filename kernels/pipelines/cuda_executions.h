#pragma once
// Building the CUDA backend's catalog (CUDA builds only).
#include <span>

#include "pipelines/cuda_kernels.h"
#include "pipelines/kernel_execution.h"

namespace fusescope {

void addElementwiseCudaExecutions(ExecutionCatalog& catalog,
                                  std::span<const CudaElementwiseEntry> entries);

}  // namespace fusescope
