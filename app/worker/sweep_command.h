#pragma once
// What the UI asks the worker to sweep, and what comes back, as plain values that cross threads
// by copy. The sweep itself is the engine's runSweep (kernels/analysis/sweep.h).
#include <QMetaType>
#include <QString>
#include <QStringList>

#include "analysis/sweep.h"
#include "worker/run_command.h"

namespace fusescope {

struct SweepCommand {
    QString pipeline;
    QStringList variants;  // empty: every variant of the pipeline
    quint64 from = kDefaultSweepStart;
    quint64 to = 0;  // 0: as far as the backend's default end and free memory allow
    int stepsPerOctave = 1;
    int vectorWidth = 4;
    BackendChoice backend = BackendChoice::Auto;
    int repeats = 20;
    int warmup = 3;

    SweepRequest request() const;
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
