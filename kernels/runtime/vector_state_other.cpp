// Targets other than x86-64 have no SSE/AVX transition penalty to avoid.
#include "runtime/vector_state.h"

namespace fusescope {

void clearUpperVectorState() {}

bool upperVectorStateInUse() {
    return false;
}

}  // namespace fusescope
