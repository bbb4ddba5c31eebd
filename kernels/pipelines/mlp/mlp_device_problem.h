#pragma once
// One MLP problem resident on the GPU: inputs uploaded once, an output and the largest scratch
// any variant needs, all allocated up front (a cudaFree makes the GPU write memory back in the
// background, which would slow whatever is timed next). No CUDA headers here.
#include <memory>

#include "core/status.h"
#include "pipelines/mlp/mlp_cuda.h"
#include "pipelines/mlp/mlp_host_data.h"

namespace fusescope::mlp {

class MlpDeviceProblem {
  public:
    static Result<std::unique_ptr<MlpDeviceProblem>> create(const MlpShape& shape, MlpDtype dtype,
                                                            const MlpHostInputs& inputs);
    ~MlpDeviceProblem();
    MlpDeviceProblem(const MlpDeviceProblem&) = delete;
    MlpDeviceProblem& operator=(const MlpDeviceProblem&) = delete;

    const MlpShape& shape() const { return shape_; }
    MlpDtype dtype() const { return dtype_; }
    MlpDeviceBuffers buffers() const;

    // All-ones bits: NaN in float32 and in bfloat16, so unwritten elements are found.
    Status poisonOutput(MlpCudaContext& context);
    // Waits for the context's stream, then copies the output into `out` (M x H, this dtype).
    Status download(MlpCudaContext& context, HostMatrix& out);

  private:
    MlpDeviceProblem() = default;
    MlpShape shape_;
    MlpDtype dtype_ = MlpDtype::Float32;
    void* x_ = nullptr;
    void* gateUp_ = nullptr;
    void* down_ = nullptr;
    void* scratch_ = nullptr;
    void* out_ = nullptr;
};

}  // namespace fusescope::mlp
