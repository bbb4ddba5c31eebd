#include "measure/cache_sweep.h"

#include <span>

#include "pipelines/cache_sweep_execution.h"
#include "pipelines/registry.h"

namespace fusescope {

Result<CacheSweep> CacheSweep::create(Backend& backend, AllocationTracker& tracker) {
    const std::uint64_t cacheBytes = backend.describe().l2CacheBytes;
    // A whole number of 16-byte words, as the GPU's sweep reads them.
    const std::uint64_t bytes =
        (cacheBytes > 0 ? cacheBytes * kCacheSweepMultiple : kCacheSweepFallbackBytes) / 16 * 16;
    Result<KernelExecution*> execution = backend.findExecution(kCacheSweepExecution);
    if (!execution) return execution.status();
    Result<TrackedBuffer> buffer = tracker.allocate("cache sweep", bytes);
    if (!buffer) return buffer.status();
    if (Status s = backend.fill(buffer->data(), 0, bytes); !s) return s;

    CacheSweep sweep;
    sweep.backend_ = &backend;
    sweep.buffer_ = std::move(*buffer);
    sweep.problem_ = std::make_unique<Problem>();
    sweep.problem_->dimensions[std::string(kElementCountDimension)] = bytes / sizeof(float);
    sweep.launch_.execution = *execution;
    sweep.launch_.call.problem = sweep.problem_.get();
    sweep.launch_.call.variant = "counter run";
    sweep.launch_.call.kernelName = "cache_sweep";
    sweep.launch_.call.buffers = {sweep.buffer_.data()};
    return sweep;
}

Status CacheSweep::run() {
    ++runs_;
    return backend_->timeLaunches(std::span(&launch_, 1), TimedStart::AsEnqueued).status();
}

}  // namespace fusescope
