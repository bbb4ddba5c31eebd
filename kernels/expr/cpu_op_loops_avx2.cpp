// The expression lab's CPU loops built for AVX2+FMA (chosen at run time where the CPU runs it).
#include "expr/cpu_op_loops.h"

namespace fusescope::expr {

const CpuOpTable& avx2FmaCpuOpTable() {
    return kCpuOpTable;
}

}  // namespace fusescope::expr
