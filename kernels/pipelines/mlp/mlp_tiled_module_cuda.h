#pragma once
// What the run-time compiled MLP kernels share on the current CUDA device: the device's facts a
// compile request needs, a module compiled through the module cache (platform/runtime_compiler.h),
// loaded with cudaLibraryLoadData and kept for the life of the process, and the resource report
// of its entry points. Only the thread that owns CUDA calls these.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "pipelines/kernel_execution.h"
#include "platform/runtime_compiler.h"

namespace fusescope::mlp {

struct TiledDeviceFacts {
    int major = 0, minor = 0;
    int sharedOptIn = 0;
    int sharedPerMultiprocessor = 0;
    int maxThreadsPerMultiprocessor = 0;
    int multiprocessors = 0;
    int l2Bytes = 0;
    std::string driver;
};
// Also gives the module cache the driver's version (part of every key).
Result<TiledDeviceFacts> tiledDeviceFacts();

// A loaded module's entry points: _full for whole tiles, _edge with bounds checks, and where the
// module has one, _rows for whole tiles of the weights with x's rows checked.
struct TiledKernel {
    void* full = nullptr;  // cudaKernel_t
    void* rows = nullptr;  // cudaKernel_t; null where the module has no such entry
    void* edge = nullptr;  // cudaKernel_t
    std::uint64_t sharedBytes = 0;
    int stages = 0;
    int threads = 0;     // a block's threads, which the module was compiled for
    std::string origin;  // where the module came from when it was loaded
    double compileMs = 0.0;
    std::string log;  // the compiler's warnings, if any
};

// The names of a module's entry points (`rows` empty where it has none).
struct TiledEntryNames {
    std::string_view full;
    std::string_view rows;
    std::string_view edge;
};

// Compiles (or finds) and loads the module, finds its entry points and lets them use
// `sharedBytes` of dynamic shared memory; blocks of `threads` launch it. The error names NVRTC's
// absence ("NVRTC not found:
// ...") or the compiler's log; `what` names the kernel in CUDA errors. A cancel returns
// Cancelled at once, the compilation left to finish in the background (runtime_compiler.h).
Result<const TiledKernel*> loadTiledKernel(const CompileRequest& request,
                                           const TiledEntryNames& names, std::uint64_t sharedBytes,
                                           int stages, int threads, std::string_view what,
                                           const CancelToken& cancel = {});

// The kernel loaded for `key` (what decides its compile request on a device: the tiles, the
// dtype) on the current device, else `load`'s, kept on success. A launch calls this between its
// timing events: found here, it builds no compile request and hashes no source.
Result<const TiledKernel*> tiledKernelFor(const std::string& key,
                                          const std::function<Result<const TiledKernel*>()>& load);

// Registers, spills, shared memory and occupancy of one entry point (one of `kernel`'s) at this
// launch.
KernelResources tiledKernelResources(const TiledKernel& kernel, const void* entry, int threads,
                                     std::uint64_t gridSize);

}  // namespace fusescope::mlp
