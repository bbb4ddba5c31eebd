#include "pipelines/mlp/cublas_library.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "platform/toolkit_library.h"

namespace fusescope::mlp {
namespace {

template <typename F>
bool bind(void* library, const char* name, F& target) {
    target = reinterpret_cast<F>(dlsym(library, name));
    return target != nullptr;
}

Result<const CublasLibrary*> open() {
    static CublasLibrary api;
    std::string tried;
    for (const std::string& candidate :
         toolkitLibraryCandidates("libcublas.so.13", "FUSESCOPE_CUBLAS")) {
        // Kept loaded for the life of the process: handles live as long as their backends.
        void* library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            tried += (tried.empty() ? "" : ", ") + candidate;
            continue;
        }
        if (!bind(library, "cublasCreate_v2", api.create) ||
            !bind(library, "cublasDestroy_v2", api.destroy) ||
            !bind(library, "cublasSetStream_v2", api.setStream) ||
            !bind(library, "cublasSetMathMode", api.setMathMode) ||
            !bind(library, "cublasGemmEx", api.gemmEx) ||
            !bind(library, "cublasGetStatusName", api.statusName) ||
            !bind(library, "cublasGetStatusString", api.statusString))
            return Status(ErrorCode::DeviceUnavailable,
                          "cuBLAS not usable: " + candidate + " lacks the functions this needs");
        return &api;
    }
    return Status(ErrorCode::DeviceUnavailable,
                  "cuBLAS not found (tried " + tried +
                      "): the MLP's library GEMMs need cuBLAS 13 from the CUDA toolkit; "
                      "install it or set CUDA_HOME");
}

}  // namespace

Result<const CublasLibrary*> loadCublas() {
    static std::once_flag once;
    static Result<const CublasLibrary*> loaded = Status(ErrorCode::DeviceUnavailable, "");
    std::call_once(once, [] { loaded = open(); });
    return loaded;
}

}  // namespace fusescope::mlp
