#include "runtime/parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "runtime/vector_state.h"

namespace fusescope {

int hardwareThreads() {
    return std::max(1u, std::thread::hardware_concurrency());
}

void parallelFor(std::uint64_t n, int threads,
                 const std::function<void(std::uint64_t, std::uint64_t)>& body) {
    constexpr std::uint64_t kMinChunk = 1u << 15;  // below this, threads cost more than they save
    const std::uint64_t wanted = std::max<std::uint64_t>(1, n / kMinChunk);
    const auto count = static_cast<std::uint64_t>(std::clamp<std::uint64_t>(wanted, 1, threads));
    // Each thread starts with a clean upper vector state (runtime/vector_state.h says why).
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

}  // namespace fusescope
