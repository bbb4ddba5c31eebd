#pragma once
// Times several builds of one kernel against each other on the same buffers, for a choice made by
// measurement (KernelExecution::choose). Only the thread that owns CUDA calls this.
#include <functional>
#include <vector>

#include "core/cancel_token.h"
#include "core/status.h"

namespace fusescope::mlp {

// Enqueues one launch of one build on the stream it was made for.
using BuildLaunch = std::function<Status()>;

// Each build launched once to warm up, then `rounds` times in turn (A, B, A, B, ...) so that the
// GPU's clocks and the L2 treat them alike; the median time of each build in milliseconds, in the
// order given. Each launch is waited for, and `cancel` asked before the next.
Result<std::vector<double>> timeBuildsInTurn(const std::vector<BuildLaunch>& builds, int rounds,
                                             void* stream, const CancelToken& cancel);

}  // namespace fusescope::mlp
