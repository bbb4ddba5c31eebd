// Builds without the CUDA backend: no GPU code for described kernels.
#include "pipelines/runtime_cuda_execution.h"

namespace fusescope {

std::unique_ptr<KernelExecution> makeRuntimeElementwiseCudaExecution(const DescribedKernel&) {
    return nullptr;
}

}  // namespace fusescope
