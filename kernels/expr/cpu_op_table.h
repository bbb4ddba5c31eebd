#pragma once
// The CPU loops of the expression lab's operations, one table per instruction set
// (cpu_op_loops.h builds them).
#include <array>
#include <cstddef>

#include "expr/expression.h"
#include "pipelines/cpu_kernels.h"

namespace fusescope::expr {

inline constexpr std::size_t kOpKinds = static_cast<std::size_t>(OpKind::Max) + 1;

// out[i] = op(a[i], b[i]) for i < count; unary operations ignore b (which must still point at
// count readable floats).
using CpuOpLoop = void (*)(const float* a, const float* b, float* out, std::size_t count);

struct CpuOpTable {
    std::array<CpuOpLoop, kOpKinds> simd;    // vector width 4
    std::array<CpuOpLoop, kOpKinds> scalar;  // vector width 1
};

// The table for an instruction set; the baseline's where the build or the CPU has no other.
const CpuOpTable& cpuOpTable(CpuInstructionSet set);

}  // namespace fusescope::expr
