// The expression lab's CPU loops for the x86-64 baseline (SSE2) or the build's own target.
#include "expr/cpu_op_loops.h"

namespace fusescope::expr {

const CpuOpTable& baselineCpuOpTable() {
    return kCpuOpTable;
}

}  // namespace fusescope::expr
