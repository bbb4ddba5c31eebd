#pragma once
// One loop per operation over `count` elements: out[i] = op(a[i], b[i]) (b unused by unary
// operations). Each comes as SIMD code, for vector width 4, which the compiler vectorizes for the
// instruction set of the file that includes this header (cpu_op_loops_baseline.cpp,
// cpu_op_loops_avx2.cpp), and as scalar code for width 1, one element per step
// (pipelines/cpu_streams.h). Internal linkage, as the built-in CPU kernels.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "expr/cpu_expr_math.h"
#include "expr/cpu_op_table.h"
#include "pipelines/cpu_streams.h"

namespace fusescope::expr {
namespace {

template <OpKind kKind>
inline float applyOp(float a, float b) {
    if constexpr (kKind == OpKind::Add) return a + b;
    if constexpr (kKind == OpKind::Subtract) return a - b;
    if constexpr (kKind == OpKind::Multiply) return a * b;
    if constexpr (kKind == OpKind::Divide) return a / b;
    if constexpr (kKind == OpKind::Negate) return -a;
    if constexpr (kKind == OpKind::Exp) return expPolynomial(a);
    if constexpr (kKind == OpKind::Log) return logPolynomial(a);
    if constexpr (kKind == OpKind::Sqrt) return std::sqrt(a);
    if constexpr (kKind == OpKind::Rsqrt) return 1.0f / std::sqrt(a);
    if constexpr (kKind == OpKind::Sigmoid) return sigmoidFloat(a);
    if constexpr (kKind == OpKind::Silu) return siluFloat(a);
    if constexpr (kKind == OpKind::Tanh) return tanhFloat(a);
    if constexpr (kKind == OpKind::Gelu) return geluFloat(a);
    if constexpr (kKind == OpKind::Abs) return std::fabs(a);
    // fmin and fmax: the other operand where one is NaN, as CUDA's fminf and fmaxf.
    if constexpr (kKind == OpKind::Min) return (a < b || b != b) ? a : b;
    if constexpr (kKind == OpKind::Max) return (a > b || b != b) ? a : b;
}

template <OpKind kKind>
void simdLoop(const float* __restrict a, const float* __restrict b, float* __restrict out,
              std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) out[i] = applyOp<kKind>(a[i], b[i]);
}

template <OpKind kKind>
void scalarLoop(const float* a, const float* b, float* out, std::size_t count) {
    for (std::uint64_t i = 0; i < count; ++i) {
        keepScalar(i);
        out[i] = applyOp<kKind>(a[i], b[i]);
    }
}

template <std::size_t... kKinds>
constexpr CpuOpTable makeOpTable(std::index_sequence<kKinds...>) {
    return {{simdLoop<static_cast<OpKind>(kKinds)>...},
            {scalarLoop<static_cast<OpKind>(kKinds)>...}};
}

constexpr CpuOpTable kCpuOpTable = makeOpTable(std::make_index_sequence<kOpKinds>());

}  // namespace
}  // namespace fusescope::expr
