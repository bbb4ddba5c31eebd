// The CUDA backend's catalog: every family's GPU code.
#include "pipelines/cuda_executions.h"
#include "pipelines/cache_sweep_execution.h"
#include "pipelines/mlp/mlp_executions.h"

namespace fusescope {

ExecutionCatalog makeCudaExecutions() {
    ExecutionCatalog catalog;
    addElementwiseCudaExecutions(catalog, affineCudaKernels());
    addElementwiseCudaExecutions(catalog, swigluCudaKernels());
    mlp::addMlpCudaExecutions(catalog);
    addCacheSweepCudaExecution(catalog);
    return catalog;
}

}  // namespace fusescope
