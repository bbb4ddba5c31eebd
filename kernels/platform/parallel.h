#pragma once
// Splits [0, n) into contiguous chunks over worker threads and waits for them.
#include <cstdint>
#include <functional>

#include "core/cancel_token.h"

namespace fusescope {

int hardwareThreads();
// Threads a parallel loop of `work` units (below) starts when `threads` may be used: one for
// little work, where starting threads would cost more than they save.
int threadsForWork(std::uint64_t work, int threads);
// Calls body(begin, end) for chunks covering [0, n); small ranges run on the calling thread.
void parallelFor(std::uint64_t n, int threads,
                 const std::function<void(std::uint64_t begin, std::uint64_t end)>& body);

// Units of work (about one multiply-add or one byte moved) between two questions to a
// CancelToken: a fraction of a millisecond on one core, so a cancel stops every thread fast.
inline constexpr std::uint64_t kCancelBlockWork = 1u << 18;

// As above, for elements that each cost `workPerElement` units: each thread calls body on blocks
// of about kCancelBlockWork units (at least `minimumBlock` elements) and asks `cancel` before
// every block, stopping when it is set. Ranges go multithreaded by their work, not their length.
// Returns false when cancelled (some elements were then not processed).
bool parallelFor(std::uint64_t n, int threads, const CancelToken& cancel,
                 std::uint64_t workPerElement,
                 const std::function<void(std::uint64_t begin, std::uint64_t end)>& body,
                 std::uint64_t minimumBlock = 4);

}  // namespace fusescope
