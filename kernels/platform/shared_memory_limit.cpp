#include "platform/shared_memory_limit.h"

#include <cstdio>

namespace fusescope {
namespace {

std::string kib(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
    return text;
}

}  // namespace

std::string sharedMemoryRefusal(std::uint64_t neededBytes, std::uint64_t allowedBytes,
                                std::string_view device, std::string_view detail) {
    std::string words = "needs " + kib(neededBytes);
    if (!detail.empty()) words += " (" + std::string(detail) + ")";
    words += " of shared memory per block; ";
    words += device.empty() ? std::string("the device") : "the " + std::string(device);
    return words + " allows " + kib(allowedBytes);
}

}  // namespace fusescope
