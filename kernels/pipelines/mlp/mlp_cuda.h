#pragma once
// The MLP variants on the GPU. This header needs no CUDA headers: device pointers and the stream
// travel as void*. Every CUDA and cuBLAS return code comes back as a Status.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/status.h"
#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp {

struct CublasLibrary;

// A stream and a cuBLAS handle on the current device. float32 products use the pedantic float32
// compute type (no TF32), tf32 products the TF32 tensor-core compute type, bfloat16 products
// accumulate in float32.
class MlpCudaContext {
  public:
    static Result<std::unique_ptr<MlpCudaContext>> create();
    // On a stream the caller owns and keeps alive longer than the context (a backend's stream).
    static Result<std::unique_ptr<MlpCudaContext>> createOnStream(void* stream);
    ~MlpCudaContext();
    MlpCudaContext(const MlpCudaContext&) = delete;
    MlpCudaContext& operator=(const MlpCudaContext&) = delete;

    void* stream() const { return stream_; }        // cudaStream_t
    void* cublasHandle() const { return cublas_; }  // cublasHandle_t
    const CublasLibrary& blas() const { return *blas_; }

  private:
    MlpCudaContext() = default;
    static Result<std::unique_ptr<MlpCudaContext>> createWith(void* stream, bool ownsStream);
    void* stream_ = nullptr;
    bool ownsStream_ = true;
    void* cublas_ = nullptr;
    const CublasLibrary* blas_ = nullptr;  // loaded at run time, alive for the process
};

// out (rows x cols, ldc) = a (rows x k, lda) * b (cols x k, ldb)^T through cuBLAS, row-major,
// float32 accumulation: the variants' library GEMMs, and the compute roofs.
Status gemmRowMajorABt(MlpCudaContext& context, DType dtype, const void* a, std::int64_t lda,
                       const void* b, std::int64_t ldb, void* out, std::int64_t ldc,
                       std::int64_t rows, std::int64_t cols, std::int64_t k);

}  // namespace fusescope::mlp
