#include "measure/counter_refusal.h"

namespace fusescope {

std::string refusalReason(CounterRefusal refusal, std::string_view detail) {
    std::string reason;
    switch (refusal) {
        case CounterRefusal::None:
            return {};
        case CounterRefusal::NotBuilt:
            reason = "hardware counters are not available: FuseScope was built without CUDA";
            break;
        case CounterRefusal::LibraryMissing:
            reason = "hardware counters are not available: the CUPTI library could not be loaded";
            break;
        case CounterRefusal::NoDevice:
            reason = "hardware counters are not available: no usable NVIDIA GPU";
            break;
        case CounterRefusal::Privileges:
            reason =
                "hardware counters are refused: GPU profiling is restricted to administrators "
                "on this machine";
            break;
        case CounterRefusal::ProfilerInUse:
            reason =
                "hardware counters are refused: another profiler is already using them "
                "(Nsight Systems, Nsight Compute or another CUPTI client)";
            break;
        case CounterRefusal::NotSupported:
            reason = "hardware counters are not supported for this GPU or metric";
            break;
        case CounterRefusal::NeedsCudaBackend:
            reason = "hardware counters need the CUDA backend; this run used the CPU";
            break;
        case CounterRefusal::Other:
            reason = "hardware counters failed";
            break;
    }
    if (!detail.empty()) reason += " (" + std::string(detail) + ")";
    return reason + ". Timing and the pass model are shown instead.";
}

CounterRefusal refusalFromReason(std::string_view message) {
    for (CounterRefusal kind :
         {CounterRefusal::NotBuilt, CounterRefusal::LibraryMissing, CounterRefusal::NoDevice,
          CounterRefusal::Privileges, CounterRefusal::ProfilerInUse, CounterRefusal::NotSupported,
          CounterRefusal::NeedsCudaBackend}) {
        std::string prefix = refusalReason(kind, "");
        prefix = prefix.substr(0, prefix.find(". Timing"));
        if (message.starts_with(prefix)) return kind;
    }
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
