#pragma once
// A kernel that only reads: one sweep over a buffer larger than the last-level cache replaces
// everything the cache held, so the dirty lines it held are written back during the sweep. The
// counter run sweeps before each measured range, so that a range counts its own kernel's traffic
// and not the write-back of what ran before it (Nsight Compute flushes its caches for the same
// reason). Its call reads buffers[0], N float32 elements (KernelCall::problem's "N"); it writes
// nothing unless the buffer holds the one word it never holds once filled with zeros.
#include <string_view>

#include "pipelines/kernel_execution.h"

namespace fusescope {

inline constexpr std::string_view kCacheSweepExecution = "cache_sweep";

void addCacheSweepCpuExecution(ExecutionCatalog& catalog);
void addCacheSweepCudaExecution(ExecutionCatalog& catalog);  // CUDA builds only

}  // namespace fusescope
