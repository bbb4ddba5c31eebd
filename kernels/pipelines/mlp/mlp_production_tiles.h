#pragma once
// Launch geometry of the production variant's own kernels, shared by the kernels and by the
// traffic model (which counts how often each block re-reads x or h).
#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp::production {

// Prefill: one block computes a kTileM x kTileI tile of h (its g and u tiles stay in registers).
inline constexpr int kTileM = 128;
inline constexpr int kTileI = 64;

// Decode: one warp per weight row, kWarpsPerBlock rows per block; every block reads all of x
// (gate_up kernel) or all of h (down kernel) from the L2.
inline constexpr int kWarpsPerBlock = 8;

// bfloat16 decode of kTensorMinRows..16 rows whose K is whole 16-byte packs runs on the tensor
// cores: 16 weight rows per block, streamed through a shared-memory ring.
// Otherwise one warp per row on the CUDA cores, whose multiply-adds grow with M. On the H200 the
// CUDA-core pair took 91.3 us at Llama-3-8B M=1, the first tensor-core pair 105.8 us.
inline constexpr int kTensorRowsPerBlock = 16;
inline constexpr std::int64_t kTensorMinRows = 2;
constexpr bool decodeTensorPolicy(MlpDtype dtype, std::int64_t M) {
    return dtype == MlpDtype::Bfloat16 && M >= kTensorMinRows;
}
constexpr bool decodeOnTensorCores(MlpDtype dtype, std::int64_t M, std::int64_t K) {
    return decodeTensorPolicy(dtype, M) && K % 8 == 0;
}
constexpr int decodeRowsPerBlock(MlpDtype dtype, std::int64_t M, std::int64_t K) {
    return decodeOnTensorCores(dtype, M, K) ? kTensorRowsPerBlock : kWarpsPerBlock;
}

}  // namespace fusescope::mlp::production
