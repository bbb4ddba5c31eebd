#include "pipelines/mlp/mlp_build_timing_cuda.h"

#include <cuda_runtime_api.h>

#include <cstddef>

#include "core/median.h"
#include "platform/cuda_error.h"
#include "platform/cuda_event_pair.h"

namespace fusescope::mlp {

Result<std::vector<double>> timeBuildsInTurn(const std::vector<BuildLaunch>& builds, int rounds,
                                             void* stream, const CancelToken& cancel) {
    const auto cudaStream = static_cast<cudaStream_t>(stream);
    CudaEventPair events;
    if (Status s = events.create(); !s) return s;
    // One launch at a time, waited for, so that a cancel leaves at most one to finish (as the
    // runner paces long launches).
    const auto timedLaunch = [&](const BuildLaunch& launch) -> Result<double> {
        if (cancel.cancelled()) return cancelledStatus();
        if (Status s =
                cudaStatus(cudaEventRecord(events.start(), cudaStream), "recording a timing event");
            !s)
            return s;
        if (Status s = launch(); !s) return s;
        if (Status s =
                cudaStatus(cudaEventRecord(events.stop(), cudaStream), "recording a timing event");
            !s)
            return s;
        if (Status s = cudaStatus(cudaEventSynchronize(events.stop()), "timing a kernel's builds");
            !s)
            return s;
        return events.elapsedMs();
    };
    for (const BuildLaunch& launch : builds)
        if (Result<double> warm = timedLaunch(launch); !warm) return warm.status();
    std::vector<std::vector<double>> times(builds.size());
    for (int round = 0; round < rounds; ++round)
        for (std::size_t b = 0; b < builds.size(); ++b) {
            Result<double> ms = timedLaunch(builds[b]);
            if (!ms) return ms.status();
            times[b].push_back(*ms);
        }
    std::vector<double> medians;
    for (const std::vector<double>& t : times) medians.push_back(median(t));
    return medians;
}

}  // namespace fusescope::mlp
