// Whether the CUDA backend can run on this machine, and if not, why, in words.
#include <cuda_runtime_api.h>

#include <fstream>
#include <string>
#include <vector>

#include "platform/cuda_error.h"
#include "runtime/backend.h"

namespace fusescope {
namespace {

// The kernel module's version line, e.g. "NVRM version: NVIDIA UNIX x86_64 Kernel Module 535.247.01
// ...", reduced to "535.247.01"; empty when no NVIDIA kernel module is loaded.
std::string kernelModuleVersion() {
    std::ifstream file("/proc/driver/nvidia/version");
    std::string line;
    if (!std::getline(file, line)) return {};
    const std::string marker = "Kernel Module";
    const auto at = line.find(marker);
    if (at == std::string::npos) return {};
    const auto begin = line.find_first_not_of(' ', at + marker.size());
    if (begin == std::string::npos) return {};
    return line.substr(begin, line.find(' ', begin) - begin);
}

// What the user can do about a driver that is missing or too old for this CUDA runtime.
std::string driverAdvice() {
    int runtimeVersion = 0;
    (void)cudaRuntimeGetVersion(&runtimeVersion);
    int driverVersion = 0;
    (void)cudaDriverGetVersion(&driverVersion);
    std::string advice = "this FuseScope uses CUDA " + cudaVersionText(runtimeVersion) +
                         ", which needs NVIDIA driver 580 or newer; ";
    if (driverVersion == 0) return advice + "no NVIDIA driver is installed or loaded";
    advice += "the installed driver supports only CUDA " + cudaVersionText(driverVersion);
    if (const std::string module = kernelModuleVersion(); !module.empty())
        advice += " (driver " + module + ")";
    return advice;
}

}  // namespace

BackendAvailability probeBackends() {
    BackendAvailability availability;
    availability.cudaBuilt = true;
    int devices = 0;
    const cudaError_t error = cudaGetDeviceCount(&devices);
    (void)cudaGetLastError();  // a failed probe must not leak into later calls
    if (error != cudaSuccess) {
        availability.cudaReason = "no usable NVIDIA GPU: " + cudaErrorText(error);
        if (error == cudaErrorInsufficientDriver || error == cudaErrorStubLibrary)
            availability.cudaReason += "; " + driverAdvice();
        return availability;
    }
    if (devices == 0) {
        availability.cudaReason = "no usable NVIDIA GPU: the driver reports no CUDA device";
        return availability;
    }
    availability.cudaUsable = true;
    return availability;
}

Status resetCudaDevice(int deviceIndex) {
    const std::string gpu = "GPU " + std::to_string(deviceIndex);
    // A broken context may answer the selection with its own error; only a GPU that is not there
    // stops the reset, which is what clears such an error.
    const Status selected = cudaStatus(cudaSetDevice(deviceIndex), "selecting " + gpu);
    if (selected.code() == ErrorCode::DeviceUnavailable ||
        selected.message().find("cudaErrorInvalidDevice") != std::string::npos)
        return selected;
    if (Status s = cudaStatus(cudaDeviceReset(), "resetting " + gpu); !s) return s;
    // The reset is only good if a fresh context answers.
    return cudaStatus(cudaFree(nullptr), "opening a fresh context on " + gpu);
}

Result<std::vector<std::string>> cudaDeviceNames() {
    const BackendAvailability availability = probeBackends();
    if (!availability.cudaUsable)
        return Status(ErrorCode::DeviceUnavailable, availability.cudaReason);
    int devices = 0;
    if (Status s = cudaStatus(cudaGetDeviceCount(&devices), "counting the CUDA devices"); !s)
        return s;
    std::vector<std::string> names;
    for (int device = 0; device < devices; ++device) {
        cudaDeviceProp properties{};
        if (Status s = cudaStatus(cudaGetDeviceProperties(&properties, device),
                                  "reading the properties of GPU " + std::to_string(device));
            !s)
            return s;
        names.emplace_back(properties.name);
    }
    return names;
}

}  // namespace fusescope
