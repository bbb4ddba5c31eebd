#include "pipelines/pass_model.h"

namespace fusescope {

Traffic modelKernelTraffic(const KernelSpec& kernel, std::uint64_t n) {
    const std::uint64_t arrayBytes = n * kElementBytes;
    Traffic traffic;
    traffic.bytesRead = kernel.reads.size() * arrayBytes;
    traffic.bytesWritten = kernel.writes.size() * arrayBytes;
    traffic.passes = static_cast<int>(kernel.reads.size() + kernel.writes.size());
    return traffic;
}

Traffic modelVariantTraffic(const VariantSpec& variant, std::uint64_t n) {
    Traffic total;
    for (const auto& kernel : variant.kernels) {
        const Traffic t = modelKernelTraffic(kernel, n);
        total.bytesRead += t.bytesRead;
        total.bytesWritten += t.bytesWritten;
        total.passes += t.passes;
    }
    return total;
}

std::uint64_t modelFootprintBytes(const VariantSpec& variant, std::uint64_t n) {
    return variant.buffers.size() * n * kElementBytes;
}

}  // namespace fusescope
