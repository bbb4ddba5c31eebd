#include "platform/shared_memory_limit.h"

#include "core/byte_text.h"

namespace fusescope {

std::string sharedMemoryRefusal(std::uint64_t neededBytes, std::uint64_t allowedBytes,
                                std::string_view device, std::string_view detail) {
    std::string words = "needs " + kibibytesText(neededBytes);
    if (!detail.empty()) words += " (" + std::string(detail) + ")";
    words += " of shared memory per block; ";
    words += device.empty() ? std::string("the device") : "the " + std::string(device);
    return words + " allows " + kibibytesText(allowedBytes);
}

}  // namespace fusescope
