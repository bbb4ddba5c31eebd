// The MLP's CUDA context and its cuBLAS products.
#include <cuda_runtime_api.h>

#include <climits>
#include <string>

#include "pipelines/mlp/cublas_library.h"
#include "pipelines/mlp/mlp_cuda.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp {
namespace {

Status cublasStatus(const CublasLibrary& blas, cublasStatus_t status, const char* action) {
    if (status == CUBLAS_STATUS_SUCCESS) return Status::ok();
    const ErrorCode code =
        status == CUBLAS_STATUS_ALLOC_FAILED      ? ErrorCode::OutOfMemory
        : status == CUBLAS_STATUS_NOT_INITIALIZED ? ErrorCode::DeviceUnavailable
        : status == CUBLAS_STATUS_INVALID_VALUE || status == CUBLAS_STATUS_NOT_SUPPORTED
            ? ErrorCode::InvalidArgument
            : ErrorCode::DeviceError;
    return {code, std::string(action) + " failed: " + blas.statusName(status) + " (" +
                      blas.statusString(status) + ")"};
}

}  // namespace

Result<std::unique_ptr<MlpCudaContext>> MlpCudaContext::create() {
    cudaStream_t stream = nullptr;
    if (Status s = cudaStatus(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                              "cudaStreamCreateWithFlags");
        !s)
        return s;
    return createWith(stream, true);
}

Result<std::unique_ptr<MlpCudaContext>> MlpCudaContext::createOnStream(void* stream) {
    return createWith(stream, false);
}

Result<std::unique_ptr<MlpCudaContext>> MlpCudaContext::createWith(void* streamPointer,
                                                                   bool ownsStream) {
    Result<const CublasLibrary*> blas = loadCublas();
    if (!blas) return blas.status();
    std::unique_ptr<MlpCudaContext> context(new MlpCudaContext());
    context->blas_ = *blas;
    auto stream = static_cast<cudaStream_t>(streamPointer);
    context->stream_ = stream;
    context->ownsStream_ = ownsStream;
    cublasHandle_t handle = nullptr;
    if (Status s = cublasStatus(**blas, (*blas)->create(&handle), "cublasCreate"); !s) return s;
    context->cublas_ = handle;
    if (Status s = cublasStatus(**blas, (*blas)->setStream(handle, stream), "cublasSetStream"); !s)
        return s;
    // Default math never substitutes TF32 by itself; each product's compute type says what it uses.
    if (Status s = cublasStatus(**blas, (*blas)->setMathMode(handle, CUBLAS_DEFAULT_MATH),
                                "cublasSetMathMode");
        !s)
        return s;
    return context;
}

MlpCudaContext::~MlpCudaContext() {
    // Teardown errors have no one to report to; the handle and stream are gone either way.
    if (cublas_ != nullptr) (void)blas_->destroy(static_cast<cublasHandle_t>(cublas_));
    if (stream_ != nullptr && ownsStream_)
        (void)cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

Status gemmRowMajorABt(MlpCudaContext& context, DType dtype, const void* a, std::int64_t lda,
                       const void* b, std::int64_t ldb, void* out, std::int64_t ldc,
                       std::int64_t rows, std::int64_t cols, std::int64_t k) {
    for (std::int64_t v : {lda, ldb, ldc, rows, cols, k})
        if (v <= 0 || v > INT_MAX)
            return {ErrorCode::InvalidArgument, "GEMM dimensions must lie in 1..INT_MAX"};
    const cudaDataType type = storesBfloat16(dtype) ? CUDA_R_16BF : CUDA_R_32F;
    // float32 asks for pedantic float32 math (never TF32); tf32 asks for TF32 tensor-core
    // products with float32 accumulation; bfloat16 accumulates in float32.
    const cublasComputeType_t compute = dtype == DType::Float32 ? CUBLAS_COMPUTE_32F_PEDANTIC
                                        : dtype == DType::Tf32  ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                : CUBLAS_COMPUTE_32F;
    const float alpha = 1.0f, beta = 0.0f;
    // Row-major C = A B^T is column-major C^T = B^T' A^T': cuBLAS sees B transposed.
    const CublasLibrary& blas = context.blas();
    return cublasStatus(
        blas,
        blas.gemmEx(static_cast<cublasHandle_t>(context.cublasHandle()), CUBLAS_OP_T, CUBLAS_OP_N,
                    static_cast<int>(cols), static_cast<int>(rows), static_cast<int>(k), &alpha, b,
                    type, static_cast<int>(ldb), a, type, static_cast<int>(lda), &beta, out, type,
                    static_cast<int>(ldc), compute, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

}  // namespace fusescope::mlp
