#include "runtime/allocation_tracker.h"

#include <algorithm>

namespace fusescope {

TrackedBuffer::TrackedBuffer(AllocationTracker* tracker, void* pointer, std::uint64_t bytes,
                             std::string name)
    : tracker_(tracker), pointer_(pointer), bytes_(bytes), name_(std::move(name)) {}

TrackedBuffer::TrackedBuffer(TrackedBuffer&& other) noexcept
    : tracker_(std::exchange(other.tracker_, nullptr)),
      pointer_(std::exchange(other.pointer_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      name_(std::move(other.name_)) {}

TrackedBuffer& TrackedBuffer::operator=(TrackedBuffer&& other) noexcept {
    if (this != &other) {
        (void)reset();
        tracker_ = std::exchange(other.tracker_, nullptr);
        pointer_ = std::exchange(other.pointer_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        name_ = std::move(other.name_);
    }
    return *this;
}

TrackedBuffer::~TrackedBuffer() {
    (void)reset();
}

Status TrackedBuffer::reset() {
    if (!tracker_ || !pointer_) return Status::ok();
    Status status = tracker_->release(pointer_, bytes_, name_);
    tracker_ = nullptr;
    pointer_ = nullptr;
    return status;
}

AllocationTracker::AllocationTracker(Backend& backend)
    : backend_(backend), epoch_(std::chrono::steady_clock::now()) {}

AllocationTracker::~AllocationTracker() = default;

std::int64_t AllocationTracker::nowNs() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                epoch_)
        .count();
}

Result<TrackedBuffer> AllocationTracker::allocate(std::string name, std::uint64_t bytes) {
    Result<void*> pointer = backend_.allocate(bytes);
    if (!pointer) {
        return Status(pointer.status().code(), "cannot allocate " + name + " (" +
                                                   std::to_string(bytes) +
                                                   " bytes): " + pointer.status().message());
    }
    inFlight_ += bytes;
    peak_ = std::max(peak_, inFlight_);
    events_.push_back({AllocationEvent::Kind::Allocate, name, bytes, nowNs(), inFlight_});
    return TrackedBuffer(this, *pointer, bytes, std::move(name));
}

Status AllocationTracker::release(void* pointer, std::uint64_t bytes, const std::string& name) {
    Status status = backend_.release(pointer);
    inFlight_ -= bytes;
    events_.push_back({AllocationEvent::Kind::Free, name, bytes, nowNs(), inFlight_});
    return status;
}

}  // namespace fusescope
