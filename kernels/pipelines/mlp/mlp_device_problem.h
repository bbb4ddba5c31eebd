#pragma once
// One MLP problem resident on the GPU: inputs uploaded once, an output and the largest scratch
// any variant needs, all allocated up front (a cudaFree makes the GPU write memory back in the
// background, which would slow whatever is timed next). No CUDA headers here.
#include <memory>

#include "core/status.h"
#include "pipelines/mlp/mlp_cuda.h"
#include "pipelines/mlp/mlp_host_data.h"

namespace fusescope::mlp {

// Device buffers of one problem, in the dtype of the run. gateUp holds gate's I rows, then up's.
struct MlpDeviceBuffers {
    const void* x = nullptr;       // M x H
    const void* gateUp = nullptr;  // 2I x H
    const void* down = nullptr;    // H x I
    void* scratch = nullptr;       // the largest scratch a variant declares
    void* out = nullptr;           // M x H
};

class MlpDeviceProblem {
  public:
    static Result<std::unique_ptr<MlpDeviceProblem>> create(const MlpShape& shape, DType dtype,
                                                            const MlpHostInputs& inputs);
    ~MlpDeviceProblem();
    MlpDeviceProblem(const MlpDeviceProblem&) = delete;
    MlpDeviceProblem& operator=(const MlpDeviceProblem&) = delete;

    const MlpShape& shape() const { return shape_; }
    DType dtype() const { return dtype_; }
    MlpDeviceBuffers buffers() const;

    // All-ones bits: NaN in float32 and in bfloat16, so unwritten elements are found.
    Status poisonOutput(MlpCudaContext& context);
    // Waits for the context's stream, then copies the output into `out` (M x H, this dtype).
    Status download(MlpCudaContext& context, HostMatrix& out);

  private:
    MlpDeviceProblem() = default;
    MlpShape shape_;
    DType dtype_ = DType::Float32;
    void* x_ = nullptr;
    void* gateUp_ = nullptr;
    void* down_ = nullptr;
    void* scratch_ = nullptr;
    void* out_ = nullptr;
};

}  // namespace fusescope::mlp
