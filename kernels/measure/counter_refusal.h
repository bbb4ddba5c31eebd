#pragma once
// Why hardware counters cannot be measured, in words a user (and an administrator) can act on.
#include <string>
#include <string_view>

namespace fusescope {

enum class CounterRefusal {
    None,
    NotBuilt,          // built without the CUDA toolkit
    LibraryMissing,    // libcupti.so.13 (or the CUPTI module) could not be loaded
    NoDevice,          // no usable NVIDIA GPU or driver
    Privileges,        // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
    ProfilerInUse,     // another profiler (Nsight, ncu, nsys) holds the counters
    NotSupported,      // this GPU or metric cannot be profiled
    NeedsCudaBackend,  // the run used the CPU backend
    Other
};

// One sentence: what happened. `detail` (a CUPTI message, a dlerror text) is appended.
std::string refusalReason(CounterRefusal refusal, std::string_view detail);
// The refusal a message made by refusalReason() names (Other when none).
CounterRefusal refusalFromReason(std::string_view message);
// What an administrator can change, or empty when nothing helps.
std::string refusalAdvice(CounterRefusal refusal);

}  // namespace fusescope
