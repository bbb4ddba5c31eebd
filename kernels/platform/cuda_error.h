#pragma once
// CUDA runtime return codes as Status values a user can read. The codes travel as int so that this
// header needs no CUDA headers.
#include <string>
#include <string_view>

#include "core/status.h"

namespace fusescope {

// "cudaErrorMemoryAllocation (out of memory)".
std::string cudaErrorText(int error);

// Status::ok() for cudaSuccess; otherwise "<action> failed: <cudaErrorText>", with the ErrorCode
// that fits (OutOfMemory, DeviceUnavailable or DeviceError) and a hint when the error leaves the
// GPU context unusable. A failure also resets the runtime's last error.
Status cudaStatus(int error, std::string_view action);

// A CUDA version number as the runtime reports it (13000) in words ("13.0").
std::string cudaVersionText(int version);

}  // namespace fusescope
