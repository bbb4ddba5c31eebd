#pragma once
// Before a run on this CPU: its estimated time (worker/cpu_run_estimate.h) in words, and a
// question when it is long, so that a GPU-sized shape is never started unannounced.
#include <QString>
#include <optional>

#include "worker/run_command.h"

class QStatusBar;
class QWidget;

namespace fusescope {

class RunController;
class RunPanel;

// Seconds the command takes on this CPU; empty when it runs on a GPU or cannot be estimated.
std::optional<double> cpuEstimateFor(const RunCommand& command, const BackendSummary& summary);

// "about 9 minutes on this CPU (mlp: M = 4096, …)".
QString describeCpuEstimate(const RunCommand& command, double seconds);

// Before the first CPU run (or CPU estimate) with a thread count: has the worker thread measure
// this CPU's speeds, and meanwhile keeps the window's events going (the wait is a local event
// loop, as a dialog's is), with the run panel and the status bar (always in sight, where the
// panel may be scrolled) saying what it measures. False when the panel's Cancel stopped the
// wait; true at once when the speeds are known or the command runs on a GPU.
bool waitForCpuSpeeds(RunController& controller, RunPanel& panel, QStatusBar& statusBar,
                      const RunCommand& command, const BackendSummary& summary);

// Asks "run anyway?" when the command is estimated over kAskAboveSeconds on this CPU; true to
// run (at once when it is shorter, or runs on a GPU).
bool confirmLongRun(QWidget* parent, const RunCommand& command, const BackendSummary& summary);

}  // namespace fusescope
