#pragma once
#include <QStringList>

namespace fusescope::cli {

// Picks the command named by arguments[1] and runs it; prints the top-level help or a one-line
// error for anything else. Returns the process's exit code.
int dispatch(const QStringList& arguments);

}  // namespace fusescope::cli
