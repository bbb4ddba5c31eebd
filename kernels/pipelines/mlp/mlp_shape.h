#pragma once
// The SwiGLU MLP problem out = down(silu(x @ gate^T) * (x @ up^T)): its dimensions, element type,
// variants and the lesson kernel's tile sizes. Plain values; no CUDA and no Qt.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fusescope::mlp {

// x is M x H, gate and up are I x H, down is H x I, out is M x H (all row-major).
struct MlpShape {
    std::int64_t M = 0;
    std::int64_t H = 0;
    std::int64_t I = 0;
};

// bfloat16 is storage only: every product is accumulated in float32. Tf32 stores float32 and
// multiplies with TF32 operands (rounded to a 10-bit mantissa) on the tensor cores, accumulating
// in float32; everything outside the products (SiLU, the multiply) stays float32.
enum class MlpDtype { Float32, Bfloat16, Tf32 };

// Whether the buffers hold bfloat16 (otherwise float32: Float32 and Tf32).
constexpr bool storesBfloat16(MlpDtype dtype) {
    return dtype == MlpDtype::Bfloat16;
}

enum class MlpVariant {
    Unfused,      // 3 cuBLAS GEMMs, a SiLU kernel and a multiply kernel: g, u, h through memory
    LessonFused,  // the lesson's one tiled kernel: gate and up recomputed per output-column tile
    Production,   // gate+up GEMM with SiLU*up in its epilogue, then down (GEMV kernels at decode)
    MergedGateUp  // serving-engine style: one gate_up GEMM, a fused SiLU*mul kernel, down
};

inline constexpr MlpVariant kAllVariants[] = {MlpVariant::Unfused, MlpVariant::LessonFused,
                                              MlpVariant::Production, MlpVariant::MergedGateUp};

std::string_view variantName(MlpVariant variant);
std::string_view dtypeName(MlpDtype dtype);
std::size_t elementBytes(MlpDtype dtype);

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

// Bytes of the variant's intermediates (g, u and h where it has them), in one buffer.
std::uint64_t scratchBytes(MlpVariant variant, const MlpShape& shape, MlpDtype dtype);

// 2*M*H*I for each of the three products: what any variant must compute.
double usefulFlops(const MlpShape& shape);

}  // namespace fusescope::mlp
