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

// Device buffers of one problem, in the dtype of the run. gateUp holds gate's I rows, then up's.
struct MlpDeviceBuffers {
    const void* x = nullptr;       // M x H
    const void* gateUp = nullptr;  // 2I x H
    const void* down = nullptr;    // H x I
    void* scratch = nullptr;       // scratchBytes(...) bytes: g, u and h where the variant has them
    void* out = nullptr;           // M x H
};

// Why this problem cannot run on the GPU (non-positive or too large dimensions, tiles that were not
// compiled); Status::ok() when it can.
Status checkCudaProblem(MlpVariant variant, const MlpShape& shape, MlpDtype dtype,
                        const LessonTiles& tiles);

// Enqueues the variant's kernels on the context's stream, each in an NVTX range named
// "mlp/<variant>/<kernel>"; does not wait for them.
Status runMlpCuda(MlpCudaContext& context, MlpVariant variant, const MlpShape& shape,
                  MlpDtype dtype, const MlpDeviceBuffers& buffers,
                  const LessonTiles& tiles = kLessonDefaultTiles);

// Kernel `kernelIndex` of the variant (mlpTraffic(...)[kernelIndex]), in its NVTX range.
Status runMlpCudaKernel(MlpCudaContext& context, MlpVariant variant, const MlpShape& shape,
                        MlpDtype dtype, const MlpDeviceBuffers& buffers, const LessonTiles& tiles,
                        std::size_t kernelIndex);

// out (rows x cols, ldc) = a (rows x k, lda) * b (cols x k, ldb)^T through cuBLAS, row-major,
// float32 accumulation: the unfused variant's GEMMs, and the benchmark's compute roof.
Status gemmRowMajorABt(MlpCudaContext& context, MlpDtype dtype, const void* a, std::int64_t lda,
                       const void* b, std::int64_t ldb, void* out, std::int64_t ldc,
                       std::int64_t rows, std::int64_t cols, std::int64_t k);

}  // namespace fusescope::mlp
