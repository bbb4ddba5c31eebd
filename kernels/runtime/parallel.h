#pragma once
// Splits [0, n) into contiguous chunks over worker threads and waits for them.
#include <cstdint>
#include <functional>

namespace fusescope {

int hardwareThreads();
// Calls body(begin, end) for chunks covering [0, n); small ranges run on the calling thread.
void parallelFor(std::uint64_t n, int threads,
                 const std::function<void(std::uint64_t begin, std::uint64_t end)>& body);

}  // namespace fusescope
