#pragma once
// The text of a size sweep as `fusescope-cli sweep` prints it and `show` prints it again: a
// header, then per variant a table of the sizes and the fitted overhead and bandwidth.
#include <QString>

#include "analysis/sweep.h"

namespace fusescope::cli {

// `dataSource` is the badge's words: "timing + model", "CPU backend, replayed", ...
QString renderSweep(const SweepReport& report, const QString& dataSource);

}  // namespace fusescope::cli
