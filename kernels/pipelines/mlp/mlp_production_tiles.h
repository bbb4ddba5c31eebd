#pragma once
// Launch geometry of the production variant's own kernels, shared by the kernels and by the
// traffic model (which counts how often each block re-reads x or h).
namespace fusescope::mlp::production {

// Prefill: one block computes a kTileM x kTileI tile of h (its g and u tiles stay in registers).
inline constexpr int kTileM = 128;
inline constexpr int kTileI = 64;

// Decode: one warp per weight row, kWarpsPerBlock rows per block; every block reads all of x
// (gate_up kernel) or all of h (down kernel) from the L2.
inline constexpr int kWarpsPerBlock = 8;

}  // namespace fusescope::mlp::production
