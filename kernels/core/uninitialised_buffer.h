#pragma once
// An owned array of trivially copyable values left uninitialised when made. Large buffers that a
// parallel loop then writes in full (asking the cancel token per block) would otherwise be
// zero-filled first on one thread: a third of a second for 256 MiB, which a cancel could not
// interrupt. Unlike a std::vector with an allocator that skips the fill, it is also freed without
// visiting each element, which an unoptimised build (the sanitizer build) does for seconds.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace fusescope {

// Every element must be written before it is read.
template <typename T>
class UninitialisedBuffer {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

  public:
    UninitialisedBuffer() = default;
    explicit UninitialisedBuffer(std::size_t count)
        : values_(count > 0 ? std::make_unique_for_overwrite<T[]>(count) : nullptr), size_(count) {}
    // A copy of [first, last).
    UninitialisedBuffer(const T* first, const T* last)
        : UninitialisedBuffer(static_cast<std::size_t>(last - first)) {
        std::copy(first, last, values_.get());
    }

    UninitialisedBuffer(const UninitialisedBuffer& other)
        : UninitialisedBuffer(other.begin(), other.end()) {}
    UninitialisedBuffer& operator=(const UninitialisedBuffer& other) {
        if (this != &other) *this = UninitialisedBuffer(other);
        return *this;
    }
    UninitialisedBuffer(UninitialisedBuffer&& other) noexcept
        : values_(std::move(other.values_)), size_(std::exchange(other.size_, 0)) {}
    UninitialisedBuffer& operator=(UninitialisedBuffer&& other) noexcept {
        values_ = std::move(other.values_);
        size_ = std::exchange(other.size_, 0);
        return *this;
    }
    ~UninitialisedBuffer() = default;

    T* data() { return values_.get(); }
    const T* data() const { return values_.get(); }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T* begin() { return data(); }
    T* end() { return data() + size_; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size_; }
    T& operator[](std::size_t index) { return values_[index]; }
    const T& operator[](std::size_t index) const { return values_[index]; }

  private:
    std::unique_ptr<T[]> values_;
    std::size_t size_ = 0;
};

}  // namespace fusescope
