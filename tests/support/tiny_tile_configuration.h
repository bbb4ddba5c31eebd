#pragma once
// The smallest tile configuration the worker tests run on the CPU backend in milliseconds.
#include "tiles/tile_types.h"

namespace testsupport {

inline fusescope::tiles::TileConfiguration tinyTileConfiguration() {
    fusescope::tiles::TileConfiguration c;
    c.pipeline = "mlp";
    c.variant = "lesson_fused";
    c.problem.dimensions = {{"M", 4}, {"H", 64}, {"I", 64}};
    c.problem.dtype = fusescope::DType::Bfloat16;
    c.problem.tuning = {{"block_m", 16}, {"block_n", 16}, {"block_h", 16}, {"block_i", 16}};
    return c;
}

}  // namespace testsupport
