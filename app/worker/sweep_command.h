#pragma once
// What the UI asks the worker to sweep, and what comes back, as plain values that cross threads
// by copy. The sweep itself is the engine's runSweep (kernels/analysis/sweep.h).
#include <QMetaType>
#include <QString>

#include "analysis/sweep.h"
#include "runtime/backend_selection.h"

namespace fusescope {

// The engine's SweepRequest travels inside unchanged (its target included), as RunRequest does
// in RunCommand.
struct SweepCommand {
    SweepRequest request;
};

// One variant measured at one N, streamed while the sweep runs (the fit comes at the end).
struct SweepPointUpdate {
    QString variant;
    int launches = 0;
    double bytesPerElement = 0.0;  // by the pass model
    SweepPoint point;
};

// The finished sweep: the engine's report (with the fits) and the request that produced it, so
// the UI can write the same file as `fusescope-cli sweep`.
struct SweepOutcome {
    SweepRequest request;
    SweepReport report;
};

}  // namespace fusescope

Q_DECLARE_METATYPE(fusescope::SweepCommand)
Q_DECLARE_METATYPE(fusescope::SweepPointUpdate)
Q_DECLARE_METATYPE(fusescope::SweepOutcome)
