#pragma once
// Launch geometry of the production variant's own kernels, shared by the kernels and by the
// traffic model (which counts how often each block re-reads x or h).
#include <array>

#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp::production {

// Prefill: one block computes a kTileM x kTileI tile of h (its g and u tiles stay in registers).
// At the default tiles bfloat16 runs the Hopper kernel (TMA and wgmma) on compute capability 9.0
// and the precompiled mma.sync kernel (128 x 128) elsewhere; float32 runs the CUDA-core kernel
// (128 x 128).
inline constexpr int kTileM = 128;
inline constexpr int kTileI = 128;
// The Hopper kernel's tiles: 128 x 128, or 128 x 112 where 128-column tiles would take more than
// one wave of kHopperWaveBlocks blocks (one block an SM of an H100 or H200): at Llama-3-8B prefill
// (M = 512) 448 tiles of 128 leave the last of four waves a third full, 512 tiles of 112 fill
// nearly four. On the H200 the gate_up kernel took 170 us at 128 x 112 against 191 us at
// 128 x 128 (M = 512) and 1316 against 1380 us (M = 4096); within one wave the wider tiles are
// faster (21 against 25 us at 512 x 1024 x 2816).
inline constexpr int kHopperTileM = 128;
inline constexpr int kHopperNarrowTileI = 112;
inline constexpr int kHopperWaveBlocks = 132;

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

// The tiles the gate_up launch computes, which the traffic model charges: the Hopper kernel's at
// the default bfloat16 tiles (which depend on the shape only, so that the model and the kernel
// agree on every GPU), else the chosen ones. The model is written for the GPUs the program is
// measured on (Hopper): elsewhere the default bfloat16 tiles run the mma.sync kernel at
// 128 x 128, as does the default cell of a tile sweep (every cell runs the same run-time
// compiled kernel); where this says 112 columns, those request x 112/128 as often as charged.
constexpr Tiles gateUpLaunchTiles(const Tiles& chosen, DType dtype, const MlpShape& shape) {
    if (!(chosen == kDefaultTiles) || dtype != DType::Bfloat16) return chosen;
    const std::int64_t wideTiles = ceilDiv(shape.M, kTileM) * ceilDiv(shape.I, kTileI);
    return {kHopperTileM, wideTiles > kHopperWaveBlocks ? kHopperNarrowTileI : kTileI};
}

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
