#pragma once
// Leaves elements uninitialised when a vector grows. Large buffers that a parallel loop then
// writes in full (asking the cancel token per block) would otherwise be zero-filled first on one
// thread: a third of a second for 256 MiB, which a cancel could not interrupt.
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace fusescope {

template <typename T>
struct UninitialisedAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {
        using other = UninitialisedAllocator<U>;
    };
    template <typename U, typename... Args>
    void construct(U* place, Args&&... args) {
        if constexpr (sizeof...(Args) == 0)
            ::new (static_cast<void*>(place)) U;
        else
            ::new (static_cast<void*>(place)) U(std::forward<Args>(args)...);
    }
};

// Every element must be written before it is read.
template <typename T>
using UninitialisedVector = std::vector<T, UninitialisedAllocator<T>>;

}  // namespace fusescope
