// Targets other than x86-64 have no SSE/AVX transition penalty to avoid.
#include "platform/vector_state.h"

namespace fusescope {

void clearUpperVectorState() {}

bool upperVectorStateInUse() {
    return false;
}

}  // namespace fusescope
