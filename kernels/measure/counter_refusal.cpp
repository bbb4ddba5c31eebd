#include "measure/counter_refusal.h"

namespace fusescope {

namespace {

struct RefusalWords {
    CounterRefusal refusal;
    const char* reason;
};

// Other last: a reason is recognised by the first entry whose words it starts with.
constexpr RefusalWords kRefusalWords[] = {
    {CounterRefusal::NotBuilt,
     "hardware counters are not available: FuseScope was built without CUDA"},
    {CounterRefusal::LibraryMissing,
     "hardware counters are not available: the CUPTI library could not be loaded"},
    {CounterRefusal::NoDevice, "hardware counters are not available: no usable NVIDIA GPU"},
    {CounterRefusal::Privileges,
     "hardware counters are refused: GPU profiling is restricted to administrators on this "
     "machine"},
    {CounterRefusal::ProfilerInUse,
     "hardware counters are refused: another profiler is already using them (Nsight Systems, "
     "Nsight Compute or another CUPTI client)"},
    {CounterRefusal::NotSupported, "hardware counters are not supported for this GPU or metric"},
    {CounterRefusal::NeedsCudaBackend,
     "hardware counters need the CUDA backend; this run used the CPU"},
    {CounterRefusal::Other, "hardware counters failed"},
};

}  // namespace

std::string refusalReason(CounterRefusal refusal, std::string_view detail) {
    if (refusal == CounterRefusal::None) return {};
    std::string reason;
    for (const RefusalWords& words : kRefusalWords)
        if (words.refusal == refusal) reason = words.reason;
    if (!detail.empty()) reason += " (" + std::string(detail) + ")";
    return reason + ". Timing and the pass model are shown instead.";
}

CounterRefusal refusalFromReason(std::string_view message) {
    for (const RefusalWords& words : kRefusalWords)
        if (message.starts_with(words.reason)) return words.refusal;
    return CounterRefusal::Other;
}

std::string refusalAdvice(CounterRefusal refusal) {
    switch (refusal) {
        case CounterRefusal::Privileges:
            return "An administrator can allow profiling for all users with the NVIDIA driver "
                   "option NVreg_RestrictProfilingToAdminUsers=0 (for example in "
                   "/etc/modprobe.d/nvidia-profiling.conf, then reload the driver or reboot), "
                   "or FuseScope can be run as root.";
        case CounterRefusal::LibraryMissing:
            return "Install the CUDA toolkit's CUPTI (libcupti.so.13) and add its folder, for "
                   "example /usr/local/cuda/targets/x86_64-linux/lib, to LD_LIBRARY_PATH.";
        case CounterRefusal::ProfilerInUse:
            return "Close the other profiler, or run FuseScope outside it.";
        case CounterRefusal::NoDevice:
            return "Install an NVIDIA driver of version 580 or newer (CUDA 13).";
        default:
            return {};
    }
}

}  // namespace fusescope
