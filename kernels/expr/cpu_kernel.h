#pragma once
// A kernel of a variant plan run on the CPU, for real: N split over the host threads in blocks
// (the cancel token asked before each), each block processed in chunks small enough for the
// first-level cache: every operation of the kernel is one loop over the chunk (vectorized at
// vector width 4, one element a step at width 1), its value kept in the chunk buffer unless the
// plan writes it to an array. One operation a kernel (unfused) is then a whole-array pass;
// fused, intermediates never leave the cache.
#include <cstdint>
#include <memory>

#include "core/cancel_token.h"
#include "core/status.h"
#include "expr/expression.h"
#include "expr/variant_plan.h"
#include "pipelines/cpu_kernels.h"

namespace fusescope::expr {

// Elements of a chunk: 2 KiB a value, so 16 operations, 8 inputs and constants fit in 64 KiB.
inline constexpr std::uint64_t kCpuChunkElements = 512;

// A kernel's loops compiled for a vector width and instruction set, run on one range of
// elements at a time (several threads may run ranges at once).
class CpuKernelCode {
  public:
    CpuKernelCode(const Program& program, const VariantPlan& plan, int kernelIndex, int vectorWidth,
                  CpuInstructionSet instructionSet);
    ~CpuKernelCode();
    CpuKernelCode(CpuKernelCode&&) noexcept;
    CpuKernelCode& operator=(CpuKernelCode&&) noexcept;

    // Elements [begin, end) of the kernel's writes from `arrays` (GeneratedKernel::args order).
    void run(void* const* arrays, std::uint64_t begin, std::uint64_t end) const;
    // Operations per element: the work a block of elements stands for.
    std::uint64_t operations() const;

  private:
    struct Steps;
    std::unique_ptr<Steps> steps_;
};

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
                    void* const* arrays, const CpuKernelRun& run);

}  // namespace fusescope::expr
