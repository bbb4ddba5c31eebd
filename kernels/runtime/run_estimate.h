#pragma once
// How long a run will take on this machine, before it starts: the model's FLOPs and bytes of
// every kernel (the registry) at this backend's measured speeds. Front ends show it and ask
// before a long run.
#include <cstdint>
#include <string>

#include "core/status.h"
#include "runtime/backend.h"
#include "runtime/runner.h"

namespace fusescope {

// What the backend does per second, measured by a short calibration.
struct MachineSpeeds {
    double flopsPerSecond = 0.0;    // the MLP's first GEMM, through the backend's own code
    double bytesPerSecond = 0.0;    // a copy larger than the caches, bytes read plus written
    double secondsPerLaunch = 0.0;  // what a kernel costs however small, on one thread
    // What a parallel loop costs per thread it starts and joins (CPU): nothing a kernel of the
    // calibration's tiny shape pays, since it stays on one thread, yet at 16 threads a kernel
    // pays it 16 times.
    double secondsPerThreadStart = 0.0;
    int threads = 1;  // the host threads these speeds were measured with (CPU)
    // Host inputs made per second (random values, conversions), in bytes of the input buffers,
    // and bytes per second of new buffers written for the first time and freed (page faults and
    // unmapping on a CPU, which start-up threads hardly speed up). Zero where not measured: the
    // copy's speed stands in.
    double inputBytesPerSecond = 0.0;
    double freshBytesPerSecond = 0.0;
    // What a variant's run costs beyond its kernels, buffers and inputs (the reference check,
    // threads, allocations): a tiny run timed whole, less its estimate.
    double secondsPerVariant = 0.0;
};

// Measures the speeds on `backend` with `cpuThreads` host threads (0: all), in about a quarter
// of a second on a CPU. The calibration's sizes are chosen by the backend's kind. It stops with
// ErrorCode::Cancelled between its steps and inside their launches once `observer` is cancelled.
Result<MachineSpeeds> measureSpeeds(Backend& backend, int cpuThreads,
                                    const RunObserver& observer = RunObserver{});

// Seconds a run of `request` takes at `speeds`: each kernel at the longer of its FLOPs and its
// bytes plus a launch and the threads it starts, times the checked run and its check, the
// warm-up runs and the repeats, plus the copy roofline, the inputs made on the host and the
// first touch of every buffer, the roofline's included.
double estimateRunSeconds(const RunRequest& request, const MachineSpeeds& speeds);

// "about 9 minutes", "about 40 s", "under a second".
std::string describeDuration(double seconds);

// Above this estimate the window asks before it runs.
inline constexpr double kAskAboveSeconds = 30.0;

}  // namespace fusescope
