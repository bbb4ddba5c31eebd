#include "runtime/backend.h"

#include <vector>

namespace fusescope {

const char* backendName(BackendKind kind) {
    return kind == BackendKind::Cuda ? "cuda" : "cpu";
}

Status Backend::copy(void* destination, const void* source, std::uint64_t bytes) {
    std::vector<unsigned char> staging(bytes);
    if (Status s = download(staging.data(), source, bytes); !s) return s;
    return upload(destination, staging.data(), bytes);
}

}  // namespace fusescope
