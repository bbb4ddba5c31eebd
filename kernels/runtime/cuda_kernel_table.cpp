// The one lookup of the CUDA kernel table; each family fills in its own ids (affine.cu, swiglu.cu).
#include "pipelines/cuda_kernels.h"

namespace fusescope {

CudaKernel cudaKernel(KernelId id, int vectorWidth) {
    if (CudaKernel kernel = affineCudaKernel(id, vectorWidth); kernel.function) return kernel;
    return swigluCudaKernel(id, vectorWidth);
}

}  // namespace fusescope
