#pragma once
// `fusescope-cli sweep`: runs variants over log-spaced N, prints a table per variant and the
// fitted launch overhead and bandwidth, and optionally writes a sweep file (the format is
// described in app/model/sweep_json.h).
#include <QStringList>

namespace fusescope::cli {

int sweepCommand(const QStringList& arguments);

}  // namespace fusescope::cli
