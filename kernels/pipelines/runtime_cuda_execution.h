#pragma once
// The GPU execution of a described elementwise kernel (pipeline_description.h): its CUDA source
// compiled by NVRTC through the module cache once per supported vector width, loaded, and
// launched as the built-in elementwise kernels are.
#include <memory>

#include "pipelines/kernel_execution.h"
#include "pipelines/pipeline_description.h"

namespace fusescope {

// Null in a build without the CUDA backend (which then never asks for it).
std::unique_ptr<KernelExecution> makeRuntimeElementwiseCudaExecution(const DescribedKernel& kernel);

}  // namespace fusescope
