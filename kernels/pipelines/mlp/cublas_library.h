#pragma once
// cuBLAS, loaded at run time (see platform/toolkit_library.h): the functions the MLP's library
// GEMMs call, or the reason they cannot run.
#include <cublas_v2.h>

#include "core/status.h"

namespace fusescope::mlp {

struct CublasLibrary {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetStream_v2) setStream = nullptr;
    decltype(&cublasSetMathMode) setMathMode = nullptr;
    // The C entry point (the header adds a C++ overload taking a cudaDataType compute type).
    using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                      int, int, const void*, const void*, cudaDataType, int,
                                      const void*, cudaDataType, int, const void*, void*,
                                      cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
    GemmEx gemmEx = nullptr;
    decltype(&cublasGetStatusName) statusName = nullptr;
    decltype(&cublasGetStatusString) statusString = nullptr;
};

// Loads libcublas.so.13 once per process (FUSESCOPE_CUBLAS names the only file to try). Fails
// with the files tried and what to install.
Result<const CublasLibrary*> loadCublas();

}  // namespace fusescope::mlp
