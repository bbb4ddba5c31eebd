#pragma once
// The SwiGLU MLP problem out = down(silu(x @ gate^T) * (x @ up^T)): its dimensions and the
// lesson kernel's tile sizes. Plain values; no CUDA and no Qt.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pipelines/dtype.h"

namespace fusescope::mlp {

// x is M x H, gate and up are I x H, down is H x I, out is M x H (all row-major).
struct MlpShape {
    std::int64_t M = 0;
    std::int64_t H = 0;
    std::int64_t I = 0;
};

// The lesson kernel's tiles (Triton constexprs BLOCK_M, BLOCK_N, BLOCK_H, BLOCK_I). BLOCK_N tiles
// the output's columns, which run over H.
struct LessonTiles {
    int blockM = 32;
    int blockN = 64;
    int blockH = 64;
    int blockI = 64;
    friend bool operator==(const LessonTiles&, const LessonTiles&) = default;
};
inline constexpr LessonTiles kLessonDefaultTiles{};

// At or below this many rows the production variant streams the weights with GEMV kernels.
inline constexpr std::int64_t kDecodeMaxRows = 16;

constexpr std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b;
}

// 2*M*H*I for each of the three products: what any variant must compute.
double usefulFlops(const MlpShape& shape);

}  // namespace fusescope::mlp
