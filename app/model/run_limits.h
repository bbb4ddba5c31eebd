#pragma once
// What the window offers and checks before it asks for a run: the runner's defaults and limits
// per backend, the host's thread count, the run time above which a run is confirmed first, and
// the words for a duration and a progress stage. The window includes this header, never the
// engine's (tests/layers checks the includes).
#include <QString>

#include "runtime/runner.h"  // IWYU pragma: export (RunRequest, RunSettings, BackendKind, limits)

namespace fusescope::model {

// The threads a CPU run uses when it is given none.
int hostThreads();
// A run estimated to take longer asks first.
bool runNeedsConfirmation(double estimatedSeconds);
// "about 9 minutes", "about 40 s", "under a second".
QString durationText(double seconds);
// The part of a progress text that names the stage ("timing fused" of "timing fused: repeat 3
// of 20 · 4 s elapsed").
QString progressStageKey(const QString& progressText);

}  // namespace fusescope::model
