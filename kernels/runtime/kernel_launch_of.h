#pragma once
// The launch of one of a variant's kernels on a problem: the backend's code for the kernel and
// the call that names it.
#include <cstddef>
#include <string>
#include <vector>

#include "pipelines/registry.h"
#include "runtime/backend.h"

namespace fusescope {

inline Result<KernelLaunch> kernelLaunchOf(Backend& backend, const std::string& variant,
                                           const Problem& problem,
                                           const std::vector<KernelSpec>& kernels,
                                           std::size_t index) {
    Result<KernelExecution*> execution = backend.findExecution(kernels[index].execution);
    if (!execution) return execution.status();
    KernelLaunch launch;
    launch.execution = *execution;
    launch.call.problem = &problem;
    launch.call.variant = variant;
    launch.call.kernelIndex = index;
    launch.call.kernelName = kernels[index].name;
    return launch;
}

}  // namespace fusescope
