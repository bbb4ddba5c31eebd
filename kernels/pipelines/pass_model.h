#pragma once
// The pass model: a pass is one sweep over one N-element array, read or written.
#include <cstdint>

#include "pipelines/registry.h"

namespace fusescope {

struct Traffic {
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesWritten = 0;
    int passes = 0;
    std::uint64_t totalBytes() const { return bytesRead + bytesWritten; }
};

Traffic modelKernelTraffic(const KernelSpec& kernel, std::uint64_t n);
Traffic modelVariantTraffic(const VariantSpec& variant, std::uint64_t n);
// Bytes the variant holds allocated at once: all of its buffers.
std::uint64_t modelFootprintBytes(const VariantSpec& variant, std::uint64_t n);

}  // namespace fusescope
