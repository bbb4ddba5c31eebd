#include "pipelines/mlp/mlp_build_timing_cuda.h"

#include <cuda_runtime_api.h>

#include <cstddef>

#include "core/median.h"
#include "platform/cuda_error.h"

namespace fusescope::mlp {

namespace {

// Two events, destroyed with the object whatever path leaves the function.
class EventPair {
  public:
    EventPair() = default;
    EventPair(const EventPair&) = delete;
    EventPair& operator=(const EventPair&) = delete;
    ~EventPair() {
        if (start_) cudaEventDestroy(start_);
        if (stop_) cudaEventDestroy(stop_);
    }
    Status create() {
        if (Status s = cudaStatus(cudaEventCreate(&start_), "creating a timing event"); !s)
            return s;
        return cudaStatus(cudaEventCreate(&stop_), "creating a timing event");
    }
    cudaEvent_t start() const { return start_; }
    cudaEvent_t stop() const { return stop_; }

  private:
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
};

}  // namespace

Result<std::vector<double>> timeBuildsInTurn(const std::vector<BuildLaunch>& builds, int rounds,
                                             void* stream, const CancelToken& cancel) {
    const auto cudaStream = static_cast<cudaStream_t>(stream);
    std::vector<EventPair> events(builds.size());
    for (EventPair& pair : events)
        if (Status s = pair.create(); !s) return s;
    for (const BuildLaunch& launch : builds)
        if (Status s = launch(); !s) return s;
    std::vector<std::vector<double>> times(builds.size());
    for (int round = 0; round < rounds; ++round) {
        if (cancel.cancelled()) return cancelledStatus();
        for (std::size_t b = 0; b < builds.size(); ++b) {
            if (Status s = cudaStatus(cudaEventRecord(events[b].start(), cudaStream),
                                      "recording a timing event");
                !s)
                return s;
            if (Status s = builds[b](); !s) return s;
            if (Status s = cudaStatus(cudaEventRecord(events[b].stop(), cudaStream),
                                      "recording a timing event");
                !s)
                return s;
        }
        if (Status s = cudaStatus(cudaStreamSynchronize(cudaStream), "timing a kernel's builds");
            !s)
            return s;
        for (std::size_t b = 0; b < builds.size(); ++b) {
            float ms = 0.0f;
            if (Status s =
                    cudaStatus(cudaEventElapsedTime(&ms, events[b].start(), events[b].stop()),
                               "reading a timing event");
                !s)
                return s;
            times[b].push_back(static_cast<double>(ms));
        }
    }
    std::vector<double> medians;
    for (const std::vector<double>& t : times) medians.push_back(median(t));
    return medians;
}

}  // namespace fusescope::mlp
