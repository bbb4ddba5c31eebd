#include "pipelines/tile_spec.h"

#include <algorithm>

#include "pipelines/registry.h"
#include "platform/shared_memory_limit.h"

namespace fusescope {

std::optional<TileRefusal> disallowedTile(const PipelineSpec& pipeline, std::string_view variant,
                                          const Problem& problem) {
    for (const TuningSpec& spec : pipeline.tunings) {
        if (!spec.appliesTo(variant)) continue;
        const int value = problem.tuningValue(spec.name);
        if (std::find(spec.allowed.begin(), spec.allowed.end(), value) == spec.allowed.end())
            return TileRefusal{RefusalKind::NotTunable, spec.title + " " + std::to_string(value) +
                                                            " is not one of the allowed values (" +
                                                            allowedText(spec.allowed) + ")"};
    }
    return std::nullopt;
}

std::optional<TileRefusal> launchRefusal(const LaunchGeometry& geometry, const DeviceLimits& limits,
                                         std::string_view stages) {
    if (geometry.threadsPerBlock > limits.maxThreadsPerBlock)
        return TileRefusal{RefusalKind::Threads, std::to_string(geometry.threadsPerBlock) +
                                                     " threads per block > the device's " +
                                                     std::to_string(limits.maxThreadsPerBlock)};
    if (geometry.dynamicSharedBytes > limits.sharedBytesPerBlockOptIn)
        return TileRefusal{
            RefusalKind::SharedMemory,
            sharedMemoryRefusal(geometry.dynamicSharedBytes, limits.sharedBytesPerBlockOptIn,
                                limits.name, stages)};
    return std::nullopt;
}

}  // namespace fusescope
