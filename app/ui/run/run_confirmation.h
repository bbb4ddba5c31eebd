#pragma once
// Before a run on this CPU: its estimated time (worker/cpu_run_estimate.h) in words, and a
// question when it is long, so that a GPU-sized shape is never started unannounced.
#include <QString>
#include <optional>

#include "worker/run_command.h"

class QWidget;

namespace fusescope {

// Seconds the command takes on this CPU; empty when it runs on a GPU or cannot be estimated.
std::optional<double> cpuEstimateFor(const RunCommand& command, const BackendSummary& summary);

// "about 9 minutes on this CPU (mlp: M = 4096, …)".
QString describeCpuEstimate(const RunCommand& command, double seconds);

// Asks "run anyway?" when the command is estimated over kAskAboveSeconds on this CPU; true to
// run (at once when it is shorter, or runs on a GPU).
bool confirmLongRun(QWidget* parent, const RunCommand& command, const BackendSummary& summary);

}  // namespace fusescope
