#pragma once
// Every buffer of a run goes through one tracker: it records allocation and free events with
// timestamps and the peak bytes in flight. Buffers free themselves (RAII), so nothing stays
// allocated after a failed or cancelled run.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "runtime/backend.h"

namespace fusescope {

struct AllocationEvent {
    enum class Kind { Allocate, Free };
    Kind kind = Kind::Allocate;
    std::string buffer;
    std::uint64_t bytes = 0;
    std::int64_t timeNs = 0;          // since the tracker's epoch (steady clock)
    std::uint64_t inFlightAfter = 0;  // bytes allocated after this event
};

class AllocationTracker;

class TrackedBuffer {
  public:
    TrackedBuffer() = default;
    TrackedBuffer(TrackedBuffer&& other) noexcept;
    TrackedBuffer& operator=(TrackedBuffer&& other) noexcept;
    TrackedBuffer(const TrackedBuffer&) = delete;
    TrackedBuffer& operator=(const TrackedBuffer&) = delete;
    ~TrackedBuffer();

    void* data() const { return pointer_; }
    std::uint64_t bytes() const { return bytes_; }
    const std::string& name() const { return name_; }
    Status reset();  // frees now; a second call does nothing

  private:
    friend class AllocationTracker;
    TrackedBuffer(AllocationTracker* tracker, void* pointer, std::uint64_t bytes, std::string name);

    AllocationTracker* tracker_ = nullptr;
    void* pointer_ = nullptr;
    std::uint64_t bytes_ = 0;
    std::string name_;
};

class AllocationTracker {
  public:
    explicit AllocationTracker(Backend& backend);
    ~AllocationTracker();
    AllocationTracker(const AllocationTracker&) = delete;
    AllocationTracker& operator=(const AllocationTracker&) = delete;

    Result<TrackedBuffer> allocate(std::string name, std::uint64_t bytes);

    std::uint64_t inFlightBytes() const { return inFlight_; }
    std::uint64_t peakBytes() const { return peak_; }
    void resetPeak() { peak_ = inFlight_; }  // start a new measurement window
    const std::vector<AllocationEvent>& events() const { return events_; }
    std::int64_t nowNs() const;

  private:
    friend class TrackedBuffer;
    Status release(void* pointer, std::uint64_t bytes, const std::string& name);

    Backend& backend_;
    std::chrono::steady_clock::time_point epoch_;
    std::uint64_t inFlight_ = 0;
    std::uint64_t peak_ = 0;
    std::vector<AllocationEvent> events_;
};

}  // namespace fusescope
