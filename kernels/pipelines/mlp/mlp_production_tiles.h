#pragma once
// Launch geometry of the production variant's own kernels, shared by the kernels and by the
// traffic model (which counts how often each block re-reads x or h).
#include <array>

#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp::production {

// Prefill: one block computes a kTileM x kTileI tile of h (its g and u tiles stay in registers).
// At the default 128 x 128 bfloat16 runs the Hopper kernel (TMA and wgmma) on compute capability
// 9.0 and the precompiled mma.sync kernel elsewhere; float32 runs the CUDA-core kernel.
inline constexpr int kTileM = 128;
inline constexpr int kTileI = 128;

// The prefill kernel's tiles: the precompiled kernel has the defaults, other allowed values
// compile at run time (mlp_production_tiled.h). Its 8 warps each own 16 columns of g and u, so
// an I tile is 32, 64 or 128 columns (2, 4 or 8 warps across) and the rest of the warps split
// the M tile in whole 16-row fragments; a copy pass fills 32 rows, so the M tile is 64 or 128.
struct Tiles {
    int tileM = kTileM;
    int tileI = kTileI;
    friend bool operator==(const Tiles&, const Tiles&) = default;
};
inline constexpr Tiles kDefaultTiles{};
// The tiles of a recording that names none: the program ran 128 x 64 before tiles were tunings.
inline constexpr Tiles kTilesBeforeTunings{128, 64};
inline constexpr std::array<int, 2> kAllowedTileM = {64, 128};
inline constexpr std::array<int, 3> kAllowedTileI = {32, 64, 128};
// The depth of the H steps each stage copies (one 128-byte row of bfloat16).
inline constexpr int kStepDepth = 64;

// Decode: one warp per weight row, kWarpsPerBlock rows per block; every block reads all of x
// (gate_up kernel) or all of h (down kernel) from the L2.
inline constexpr int kWarpsPerBlock = 8;

// bfloat16 decode whose K is whole 16-byte packs runs on the tensor cores: 16 weight rows per
// block, streamed through a shared-memory ring; float32 and other rows take one warp per row on
// the CUDA cores. On the H200 (Llama-3-8B, both kernels with programmatic dependent launch) the
// tensor-core pair took 88.5 us at M=1 against the CUDA-core pair's 92.2, and 89.1 to 92.8 us at
// M=2..16, where the CUDA-core multiply-adds grow with M (127.5 us at M=2).
inline constexpr int kTensorRowsPerBlock = 16;
constexpr bool decodeTensorPolicy(DType dtype, std::int64_t) {
    return dtype == DType::Bfloat16;
}
constexpr bool decodeOnTensorCores(DType dtype, std::int64_t M, std::int64_t K) {
    return decodeTensorPolicy(dtype, M) && K % 8 == 0;
}
constexpr int decodeRowsPerBlock(DType dtype, std::int64_t M, std::int64_t K) {
    return decodeOnTensorCores(dtype, M, K) ? kTensorRowsPerBlock : kWarpsPerBlock;
}

}  // namespace fusescope::mlp::production
