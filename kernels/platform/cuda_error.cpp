#include "platform/cuda_error.h"

#include <cuda_runtime_api.h>

namespace fusescope {
namespace {

ErrorCode errorCodeFor(cudaError_t error) {
    switch (error) {
        case cudaErrorMemoryAllocation:
            return ErrorCode::OutOfMemory;
        case cudaErrorNoDevice:
        case cudaErrorInsufficientDriver:
        case cudaErrorStubLibrary:
        case cudaErrorDevicesUnavailable:
        case cudaErrorCompatNotSupportedOnDevice:
        case cudaErrorSystemDriverMismatch:
        case cudaErrorNoKernelImageForDevice:
        case cudaErrorUnsupportedPtxVersion:
            return ErrorCode::DeviceUnavailable;
        default:
            return ErrorCode::DeviceError;
    }
}

// Errors after which every later CUDA call in this process fails too.
bool leavesContextUnusable(cudaError_t error) {
    switch (error) {
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchFailure:
        case cudaErrorIllegalInstruction:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorHardwareStackError:
        case cudaErrorAssert:
        case cudaErrorLaunchTimeout:
        case cudaErrorECCUncorrectable:
            return true;
        default:
            return false;
    }
}

}  // namespace

std::string cudaErrorText(int error) {
    const auto code = static_cast<cudaError_t>(error);
    return std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) + ")";
}

Status cudaStatus(int error, std::string_view action) {
    const auto code = static_cast<cudaError_t>(error);
    if (code == cudaSuccess) return Status::ok();
    // Reset the runtime's last error, so that a later cudaGetLastError() after a good launch does
    // not report this one again (errors that break the context stay; nothing clears those).
    (void)cudaGetLastError();
    std::string message = std::string(action) + " failed: " + cudaErrorText(error);
    if (leavesContextUnusable(code))
        message +=
            "; the GPU context is now unusable (every later call on it fails until it is reset)";
    return Status(errorCodeFor(code), std::move(message));
}

std::string cudaVersionText(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace fusescope
