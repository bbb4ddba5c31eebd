#pragma once
// The one wording of a kernel that needs more shared memory per block than the device lets a
// block opt in to: the run path, the tile model and the resource report all refuse with it,
// before anything is launched.
#include <cstdint>
#include <string>
#include <string_view>

namespace fusescope {

// "needs 449.0 KiB of shared memory per block; the NVIDIA H200 allows 227.0 KiB"; `detail`
// (such as "2 stages") goes in brackets after the size, `device` may be empty ("the device").
std::string sharedMemoryRefusal(std::uint64_t neededBytes, std::uint64_t allowedBytes,
                                std::string_view device, std::string_view detail = {});

}  // namespace fusescope
