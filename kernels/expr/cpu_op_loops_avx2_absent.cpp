// Targets other than x86-64 have no AVX2 build of the expression lab's CPU loops.
#include "expr/cpu_op_table.h"

namespace fusescope::expr {

const CpuOpTable& baselineCpuOpTable();

const CpuOpTable& avx2FmaCpuOpTable() {
    return baselineCpuOpTable();
}

}  // namespace fusescope::expr
