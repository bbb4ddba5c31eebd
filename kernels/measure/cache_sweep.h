#pragma once
// Clears the last-level cache of dirty lines before a counter range, the way Nsight Compute's
// cache control does before each replay pass. Without it, lines that earlier work left dirty in
// the L2 (input uploads, output poisoning, the previous kernel's writes) are written back while
// the next range runs and counted as that kernel's DRAM writes: up to half the H200's 60 MB L2
// on every kernel, whatever its size.
#include <cstdint>
#include <memory>

#include "core/status.h"
#include "runtime/allocation_tracker.h"
#include "runtime/backend.h"

namespace fusescope {

// Reads this many times the cache's size: the L2's replacement is not strictly least recently
// used, so one cache's worth of reads could leave some dirty lines behind.
inline constexpr std::uint64_t kCacheSweepMultiple = 4;
// Where the backend does not say how large its cache is.
inline constexpr std::uint64_t kCacheSweepFallbackBytes = std::uint64_t{256} << 20;

class CacheSweep {
  public:
    // Allocates the sweep's buffer through the tracker and fills it with zeros.
    static Result<CacheSweep> create(Backend& backend, AllocationTracker& tracker);

    // Reads the whole buffer once and waits for it: every dirty line is written back by then.
    Status run();
    std::uint64_t bytes() const { return buffer_.bytes(); }
    int runs() const { return runs_; }

  private:
    CacheSweep() = default;

    Backend* backend_ = nullptr;
    TrackedBuffer buffer_;
    std::unique_ptr<Problem> problem_;  // the launch points at it, so it must not move
    KernelLaunch launch_;
    int runs_ = 0;
};

}  // namespace fusescope
