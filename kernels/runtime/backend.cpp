#include "runtime/backend.h"

namespace fusescope {

const char* backendName(BackendKind kind) {
    return kind == BackendKind::Cuda ? "cuda" : "cpu";
}

}  // namespace fusescope
