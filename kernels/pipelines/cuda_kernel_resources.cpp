#include "pipelines/cuda_kernel_resources.h"

#include <cuda_runtime.h>

#include <algorithm>

namespace fusescope {

KernelResources kernelResourcesOf(const void* kernel, int threads, int dynamicSharedBytes,
                                  std::int64_t gridSize) {
    cudaFuncAttributes attributes{};
    int blocks = 0, device = 0, threadsPerSm = 0;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             dynamicSharedBytes) != cudaSuccess ||
        cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, kernel, threads, static_cast<std::size_t>(dynamicSharedBytes)) !=
            cudaSuccess ||
        cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, device) !=
            cudaSuccess) {
        (void)cudaGetLastError();  // a query that failed leaves nothing sticky behind
        return {};
    }
    KernelResources r;
    r.known = true;
    r.registersPerThread = attributes.numRegs;
    r.localBytesPerThread = static_cast<int>(attributes.localSizeBytes);
    r.staticSharedBytes = static_cast<int>(attributes.sharedSizeBytes);
    r.dynamicSharedBytes = dynamicSharedBytes;
    r.sharedBytesPerBlock = r.staticSharedBytes + dynamicSharedBytes;
    r.blockSize = threads;
    r.gridSize = static_cast<int>(gridSize);
    r.blocksPerMultiprocessor = blocks;
    r.theoreticalOccupancy =
        static_cast<double>(blocks * threads) / static_cast<double>(std::max(1, threadsPerSm));
    r.origin = "precompiled";
    return r;
}

}  // namespace fusescope
