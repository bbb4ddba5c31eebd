#pragma once
// How long a run takes on this machine's CPU, before it starts: the model (run_estimate.h) at
// speeds measured once per session and thread count. Measuring takes about a quarter of a second
// (a CPU backend of its own, no GPU), so the worker thread does it (RunController::
// measureCpuSpeeds); the UI thread only reads what is known.
#include <optional>

#include "runtime/run_estimate.h"
#include "worker/run_command.h"

namespace fusescope {

// Whether the command runs on the CPU: chosen, or auto on a machine without a usable GPU.
bool runsOnCpu(const RunCommand& command, const BackendSummary& summary);

// The speeds for `threads` (0: every hardware thread) if they were measured; never measures.
std::optional<MachineSpeeds> knownCpuSpeeds(int threads);
// Whether measuring for `threads` is over, measured or failed: nothing more will come of asking.
bool cpuSpeedsSettled(int threads);
// Measures the speeds for `threads` unless settled already. Slow: for the worker thread. A
// calibration that `observer` cancels leaves them unsettled; false then.
bool measureCpuSpeeds(int threads, const RunObserver& observer = RunObserver{});

// Seconds the command's run takes on this CPU at the known speeds; empty when they are not
// measured (yet, or they could not be). Never measures.
std::optional<double> estimateCpuRunSeconds(const RunCommand& command);

}  // namespace fusescope
