#pragma once
// Shapes every variant is checked on: odd sizes that leave partial tiles and rows that are not
// whole 16-byte packs, decode shapes, prefill shapes past the decode limit, and one shape of whole
// tiles.
#include <string>

#include "pipelines/mlp/mlp_shape.h"

namespace fusescope::mlp::testing_support {

inline constexpr MlpShape kOddShapes[] = {
    {3, 1000, 2750},  // decode-sized, I not a multiple of 8
    {1, 256, 512},    // one row
    {37, 136, 200},   // partial M and column tiles
    {130, 264, 328},  // past the decode limit: two M tiles of the production kernel
    {5, 320, 680},    // bf16 gate_up on the tensor cores with a partial 16-row block
    {12, 328, 640},   // two 8-row activation tiles; bf16 down on the tensor cores, partial block
    {20, 100, 72},    // prefill-sized with rows that are not whole 16-byte packs
    {40, 64, 96},     // one H step per I chunk: the lesson kernel's down slots turn over fastest
    {128, 192, 320},  // whole tiles (lesson 32/64/64, prefill 128 rows): copies without checks
};

inline std::string shapeText(const MlpShape& s) {
    return "M=" + std::to_string(s.M) + " H=" + std::to_string(s.H) + " I=" + std::to_string(s.I);
}

}  // namespace fusescope::mlp::testing_support
