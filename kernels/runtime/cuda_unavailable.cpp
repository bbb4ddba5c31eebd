// Linked when FuseScope is built without the CUDA toolkit: the CPU backend still works.
#include "runtime/backend.h"

namespace fusescope {

BackendAvailability probeBackends() {
    BackendAvailability availability;
    availability.cudaBuilt = false;
    availability.cudaUsable = false;
    availability.cudaReason = "this FuseScope was built without the CUDA toolkit";
    return availability;
}

Result<std::vector<std::string>> cudaDeviceNames() {
    return Status(ErrorCode::DeviceUnavailable, probeBackends().cudaReason);
}

Result<std::unique_ptr<Backend>> createCudaBackend(int) {
    return Status(ErrorCode::DeviceUnavailable, probeBackends().cudaReason);
}

Status resetCudaDevice(int) {
    return Status(ErrorCode::DeviceUnavailable, probeBackends().cudaReason);
}

}  // namespace fusescope
