#pragma once
// The two launch attributes a kernel with large tiles sets before its first launch, each checked,
// with one wording of the failure ("cudaFuncSetAttribute (<kernel> shared memory) failed: ...").
#include <cuda_runtime_api.h>

#include <string>

#include "platform/cuda_error.h"

namespace fusescope {

// Lets the kernel at `entry` take `bytes` of dynamic shared memory a block, past the 48 KiB a
// launch may take without asking.
template <typename Entry>
Status allowDynamicSharedMemory(Entry* entry, int bytes, const std::string& kernel) {
    return cudaStatus(cudaFuncSetAttribute(reinterpret_cast<const void*>(entry),
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
                      "cudaFuncSetAttribute (" + kernel + " shared memory)");
}

// Asks for all of the unified L1/shared storage as shared memory, so that more blocks of the
// kernel at `entry` fit on a multiprocessor.
template <typename Entry>
Status preferSharedMemoryCarveout(Entry* entry, const std::string& kernel) {
    return cudaStatus(cudaFuncSetAttribute(reinterpret_cast<const void*>(entry),
                                           cudaFuncAttributePreferredSharedMemoryCarveout,
                                           cudaSharedmemCarveoutMaxShared),
                      "cudaFuncSetAttribute (" + kernel + " carveout)");
}

}  // namespace fusescope
