#pragma once
// How long a run takes on this machine's CPU, before it starts: the model (run_estimate.h) at
// speeds measured once per session and thread count. The calibration uses a CPU backend of its
// own (no GPU), so any thread may ask; the first question takes about a quarter of a second.
#include <optional>

#include "worker/run_command.h"

namespace fusescope {

// Whether the command runs on the CPU: chosen, or auto on a machine without a usable GPU.
bool runsOnCpu(const RunCommand& command, const BackendSummary& summary);

// Seconds the command's run takes on this CPU; empty when the speeds could not be measured.
std::optional<double> estimateCpuRunSeconds(const RunCommand& command);

}  // namespace fusescope
