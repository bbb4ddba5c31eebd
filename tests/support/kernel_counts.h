#pragma once
// Counters as a counter run measures them: the DRAM bytes and the L1 sectors, the rest unset.
#include "runtime/runner.h"

namespace fusescope::testing_support {

inline KernelCounters counted(double dramRead, double dramWritten, double sectorsRead,
                              double sectorsWritten) {
    KernelCounters counters;
    counters.dramBytesRead = dramRead;
    counters.dramBytesWritten = dramWritten;
    counters.sectorsRead = sectorsRead;
    counters.sectorsWritten = sectorsWritten;
    return counters;
}

}  // namespace fusescope::testing_support
