#pragma once
// The CPU execution of an elementwise kernel: N elements split over the host threads in blocks,
// asking the cancel token between blocks. The built-in families pick their compiled kernels
// (cpu_kernels.h); a family registered at run time gives its own (runtime_registry.h).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "pipelines/kernel_execution.h"

namespace fusescope {

// Computes elements [begin, end) of the kernel's outputs from `buffers` (KernelSpec::args order).
using ElementRangeKernel =
    std::function<void(void* const* buffers, std::uint64_t begin, std::uint64_t end)>;
// The code for a vector width in an instruction set; empty where there is none.
using ElementRangePicker = std::function<ElementRangeKernel(int vectorWidth, CpuInstructionSet)>;

// `name` names the kernel in errors.
std::unique_ptr<KernelExecution> makeElementwiseCpuExecution(std::string name,
                                                             ElementRangePicker pick);

}  // namespace fusescope
