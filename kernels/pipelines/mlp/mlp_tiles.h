#pragma once
// The MLP's tunable variants' tile declarations for the registry: the lesson's fused kernel and
// the production fusion's prefill gate_up kernel, each with its launch geometry and its refusal.
#include "pipelines/tile_spec.h"

namespace fusescope::mlp {

// The tensor-core fragment every bfloat16 tile of the lesson's kernel must be a whole number of
// (rows and columns of mma.m16n8k16 with ldmatrix.x4 B fragments).
inline constexpr int kMmaTile = 16;

VariantTiles lessonVariantTiles();
VariantTiles productionVariantTiles();

}  // namespace fusescope::mlp
