#pragma once
// The decode GEMVs' launch choices (internal to kernels/pipelines/mlp): which kernels run and
// whether each kernel may start while the previous one finishes (programmatic dependent launch).
// The production variant uses decodeDefaults(); the benchmark sweeps the rest.
#include <cuda_runtime_api.h>

#include "core/status.h"
#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp {

struct DecodeConfig {
    bool tensorCores = false;  // bfloat16 rows of whole 16-byte packs only
    // Programmatic dependent launch, weights fetched before waiting: on the H200 it took 1.3 to
    // 3.4 us off the tensor-core pair at every M from 1 to 16.
    bool overlap = true;
    // At M <= 8 on the tensor cores: gate and up in 4-warp blocks of 128 of K a stage, down with
    // 8 stages (mlp_decode_tensor_gemv.cu says why).
    bool narrowRings = false;
};

DecodeConfig decodeDefaults(DType dtype, const MlpShape& shape);

// h = silu(x gate^T) * (x up^T), then out = h down^T, for M <= kDecodeMaxRows.
Status launchDecodeGateUpSilu(DType dtype, const MlpShape& shape, const DecodeConfig& config,
                              const void* x, const void* gate, const void* up, void* h,
                              cudaStream_t stream);
Status launchDecodeDown(DType dtype, const MlpShape& shape, const DecodeConfig& config,
                        const void* h, const void* down, void* out, cudaStream_t stream);

// The kernels themselves, chosen by the two functions above.
Status launchTensorGemvGateUpSilu(const MlpShape& shape, const DecodeConfig& config, const void* x,
                                  const void* gate, const void* up, void* h, cudaStream_t stream);
Status launchTensorGemvDown(const MlpShape& shape, const DecodeConfig& config, const void* h,
                            const void* down, void* out, cudaStream_t stream);

}  // namespace fusescope::mlp
