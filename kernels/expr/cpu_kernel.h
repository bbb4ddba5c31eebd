#pragma once
// A kernel of a variant plan run on the CPU, for real: N split over the host threads in blocks
// (the cancel token asked before each), each block processed in chunks small enough for the
// first-level cache: every operation of the kernel is one loop over the chunk (vectorized at
// vector width 4, one element a step at width 1), its value kept in the chunk buffer unless the
// plan writes it to an array. One operation a kernel (unfused) is then a whole-array pass;
// fused, intermediates never leave the cache.
#include <cstdint>

#include "core/cancel_token.h"
#include "core/status.h"
#include "expr/expression.h"
#include "expr/variant_plan.h"
#include "pipelines/cpu_kernels.h"

namespace fusescope::expr {

// Elements of a chunk: 2 KiB a value, so 16 operations, 8 inputs and constants fit in 64 KiB.
inline constexpr std::uint64_t kCpuChunkElements = 512;

struct CpuKernelRun {
    std::uint64_t n = 0;
    int vectorWidth = 4;
    int threads = 1;
    CpuInstructionSet instructionSet = CpuInstructionSet::Baseline;
    CancelToken cancel;
};

// `arrays` are the kernel's arrays in GeneratedKernel::args order: those it reads, then those it
// writes. Returns Cancelled when the token stopped it.
Status runCpuKernel(const Program& program, const VariantPlan& plan, int kernelIndex,
                    float* const* arrays, const CpuKernelRun& run);

}  // namespace fusescope::expr
