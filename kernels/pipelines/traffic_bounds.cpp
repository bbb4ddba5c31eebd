#include "pipelines/traffic_bounds.h"

#include <algorithm>

namespace fusescope {

DistinctBytes distinctBytes(const KernelSpec& kernel, const VariantSpec& variant,
                            const Problem& problem) {
    DistinctBytes bytes;
    for (const BufferTraffic& traffic : kernel.traffic.buffers) {
        const BufferSpec* buffer = findBuffer(variant, traffic.buffer);
        // A buffer the variant does not declare has no size to cap by: charged as modelled.
        const std::uint64_t size = buffer ? buffer->bytes(problem) : UINT64_MAX;
        bytes.read += std::min(traffic.bytesRead, size);
        bytes.written += std::min(traffic.bytesWritten, size);
    }
    return bytes;
}

std::optional<double> usefulFlops(const PipelineSpec& pipeline, const Problem& problem) {
    if (pipeline.variants.empty()) return std::nullopt;
    double flops = 0.0;
    for (const KernelSpec& kernel : pipeline.variants.front().kernelsFor(problem))
        flops += kernel.traffic.flops;
    if (!(flops > 0)) return std::nullopt;
    return flops;
}

}  // namespace fusescope
