#include "platform/parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "platform/vector_state.h"

namespace fusescope {
namespace {

constexpr std::uint64_t kMinChunk = 1u << 15;  // below this, threads cost more than they save

// Runs body over [0, n) on `count` threads (the calling thread alone for one).
void splitOver(std::uint64_t n, std::uint64_t count,
               const std::function<void(std::uint64_t, std::uint64_t)>& body) {
    // Each thread starts with a clean upper vector state (platform/vector_state.h says why).
    if (count <= 1) {
        clearUpperVectorState();
        body(0, n);
        return;
    }
    // Chunk boundaries are multiples of 4 so that four-wide steps never straddle two threads.
    const std::uint64_t chunk = ((n + count - 1) / count + 3) / 4 * 4;
    std::vector<std::jthread> workers;
    workers.reserve(count);
    for (std::uint64_t begin = 0; begin < n; begin += chunk)
        workers.emplace_back([&body, begin, end = std::min(n, begin + chunk)] {
            clearUpperVectorState();
            body(begin, end);
        });
}

std::uint64_t threadsFor(std::uint64_t work, int threads) {
    const std::uint64_t wanted = std::max<std::uint64_t>(1, work / kMinChunk);
    return std::clamp<std::uint64_t>(wanted, 1, static_cast<std::uint64_t>(std::max(1, threads)));
}

}  // namespace

int threadsForWork(std::uint64_t work, int threads) {
    return static_cast<int>(threadsFor(work, threads));
}

int hardwareThreads() {
    return std::max(1u, std::thread::hardware_concurrency());
}

void parallelFor(std::uint64_t n, int threads,
                 const std::function<void(std::uint64_t, std::uint64_t)>& body) {
    splitOver(n, threadsFor(n, threads), body);
}

bool parallelFor(std::uint64_t n, int threads, const CancelToken& cancel,
                 std::uint64_t workPerElement,
                 const std::function<void(std::uint64_t, std::uint64_t)>& body,
                 std::uint64_t minimumBlock) {
    if (cancel.cancelled()) return false;  // no threads started for nothing
    const std::uint64_t perElement = std::max<std::uint64_t>(1, workPerElement);
    const std::uint64_t work = n > UINT64_MAX / perElement ? UINT64_MAX : n * perElement;
    // Blocks are multiples of 4 elements, as chunks are, for the four-wide kernels.
    const std::uint64_t block =
        (std::max<std::uint64_t>(minimumBlock, kCancelBlockWork / perElement) + 3) / 4 * 4;
    splitOver(n, threadsFor(work, threads), [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t first = begin; first < end; first += block) {
            if (cancel.cancelled()) return;
            body(first, std::min(end, first + block));
        }
    });
    return !cancel.cancelled();
}

}  // namespace fusescope
