// The CUDA backend's catalog: every family's GPU code.
#include "runtime/cuda_executions.h"
#include "pipelines/mlp/mlp_executions.h"
#include "runtime/cache_sweep_execution.h"

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
