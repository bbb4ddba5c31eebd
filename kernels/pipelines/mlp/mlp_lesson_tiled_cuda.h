#pragma once
// The run-time compiled lesson kernel on the current CUDA device: compiled through the module
// cache (runtime/runtime_compiler.h), loaded with cudaLibraryLoadData and kept for the life of
// the process. Only the thread that owns CUDA calls these.
#include <cstdint>
#include <string>

#include "core/status.h"
#include "pipelines/mlp/mlp_shape.h"
#include "runtime/kernel_execution.h"

namespace fusescope::mlp {

struct LessonTiledKernel {
    void* full = nullptr;  // cudaKernel_t of the whole-tiles entry point
    void* edge = nullptr;  // cudaKernel_t of the bounds-checked one
    std::uint64_t sharedBytes = 0;
    int stages = 0;
    std::string origin;  // where the module came from when it was loaded
    double compileMs = 0.0;
    std::string log;  // the compiler's warnings, if any
};

// Compiles (or finds) and loads the kernel for these tiles; the error names NVRTC's absence
// ("NVRTC not found: ...") or the compiler's log.
Result<const LessonTiledKernel*> lessonTiledKernel(const LessonTiles& tiles, MlpDtype dtype);

// The compile request the current device needs for these tiles (architecture and stages).
Result<CompileRequest> lessonTiledRequestForDevice(const LessonTiles& tiles, MlpDtype dtype);

Status launchLessonTiled(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                         const MlpShape& shape, const void* x, const void* gate, const void* up,
                         const void* down, void* out, void* stream);

// Registers, spills, shared memory and occupancy of the entry point this shape runs.
KernelResources lessonTiledResources(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                                     const MlpShape& shape);

}  // namespace fusescope::mlp
