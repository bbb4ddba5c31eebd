#pragma once
// A kernel's counter as a recording shows it: empty where the kernel was not measured, or where
// the counter was not among those measured (older recordings hold the DRAM bytes alone).
#include <optional>

#include "runtime/runner.h"

namespace fusescope::model {

inline std::optional<double> measured(const KernelResult& kernel, double KernelCounters::*count) {
    if (!kernel.counters) return std::nullopt;
    return (*kernel.counters).*count;
}

inline std::optional<double> measured(const KernelResult& kernel,
                                      std::optional<double> KernelCounters::*count) {
    if (!kernel.counters) return std::nullopt;
    return (*kernel.counters).*count;
}

}  // namespace fusescope::model
