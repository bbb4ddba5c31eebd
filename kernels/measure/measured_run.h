#pragma once
// A measured run: the normal timed run (runPipeline), then a counter run (Range Profiler, each
// kernel replayed from a clean L2: separate from timing, since replay changes timing) and a
// sampling run (PM sampling + Activity API while the variants run back to back, each allocating its
// buffers, running its kernels a few times and freeing them). Where counters are refused, the
// report says why once (RunReport::counterStatus) and keeps timing plus model; counters stay empty,
// never zeros.
#include <cstdint>

#include "measure/counted_launches.h"
#include "measure/counter_provider.h"
#include "runtime/runner.h"

namespace fusescope {

struct MeasureOptions {
    bool counters = true;  // per-kernel counters (counter run)
    bool sampling = true;  // bandwidth over time + timeline (sampling run)
    // 10 us .. 1 ms. Decoding costs ~10 us of host CPU per sample on the H200 machine, so at
    // 10 us the host only just keeps up and samples can be lost; 20 us keeps a 2x margin.
    std::int64_t samplingIntervalNs = 20'000;
    int samplingRepeats = 3;  // launches of each variant's kernels while sampled
    // Times the counter run counts each launch (1 .. kMaxCountedLaunches): a tiled kernel's DRAM
    // reads move from launch to launch with what the L2 keeps, and the range shows it.
    int countedLaunches = kDefaultCountedLaunches;
};

Status validateMeasureOptions(const MeasureOptions& options);

Result<RunReport> runMeasured(Backend& backend, CounterProvider& provider,
                              const RunRequest& request, const MeasureOptions& options,
                              RunObserver& observer);

// The two extra runs on their own, on a report runPipeline made from the same request, with the
// request's host inputs (makeHostInputs). They fail with the provider's words; runMeasured
// turns that into counterStatus.
Status addCounterRun(Backend& backend, CounterProvider& provider, const RunRequest& request,
                     int countedLaunches, const HostBuffers& inputs, RunReport& report,
                     RunObserver& observer);
Status addSamplingRun(Backend& backend, CounterProvider& provider, const RunRequest& request,
                      const MeasureOptions& options, const HostBuffers& inputs, RunReport& report,
                      RunObserver& observer);

}  // namespace fusescope
