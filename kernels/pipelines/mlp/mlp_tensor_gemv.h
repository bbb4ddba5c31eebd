#pragma once
// The bfloat16 decode GEMVs on the tensor cores (mlp_decode_tensor_gemv.cu), chosen by the
// decode launchers when production::decodeOnTensorCores; the CUDA-core GEMVs take the rest.
#include <cuda_runtime_api.h>

#include "core/status.h"
#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp {

Status launchTensorGemvGateUpSilu(const MlpShape& shape, const void* x, const void* gate,
                                  const void* up, void* h, cudaStream_t stream);
Status launchTensorGemvDown(const MlpShape& shape, const void* h, const void* down, void* out,
                            cudaStream_t stream);

}  // namespace fusescope::mlp
