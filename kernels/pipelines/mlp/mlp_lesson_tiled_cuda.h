#pragma once
// The run-time compiled lesson kernel on the current CUDA device, loaded as every run-time
// compiled MLP kernel is (mlp_tiled_module_cuda.h). Only the thread that owns CUDA calls these.
#include <cstdint>
#include <string>
#include <vector>

#include "core/cancel_token.h"
#include "core/status.h"
#include "pipelines/kernel_execution.h"
#include "pipelines/mlp/mlp_shape.h"
#include "pipelines/mlp/mlp_tiled_module_cuda.h"

namespace fusescope::mlp {

using LessonTiledKernel = TiledKernel;

// Compiles (or finds) and loads the kernel for these tiles and shape (the shape's grid decides
// the copy pipeline's depth); the error names NVRTC's absence ("NVRTC not found: ...") or the
// compiler's log. A cancel while it compiles returns Cancelled at once.
Result<const LessonTiledKernel*> lessonTiledKernel(const LessonTiles& tiles, DType dtype,
                                                   const MlpShape& shape,
                                                   const CancelToken& cancel = {});

// Compiles (or finds) every build chooseLessonTiledBuild times, all at once (compileAll); a
// cancel returns Cancelled at once.
Status compileLessonTiledBuilds(const LessonTiles& tiles, DType dtype, const MlpShape& shape,
                                const CancelToken& cancel);

// Every compile request the current device may need for these tiles and shape (architecture,
// stages and each build chooseLessonTiledBuild times).
Result<std::vector<CompileRequest>> lessonTiledRequestsForDevice(const LessonTiles& tiles,
                                                                 DType dtype,
                                                                 const MlpShape& shape);

struct LessonTiledBuffers {
    const void* x = nullptr;
    const void* gate = nullptr;
    const void* up = nullptr;
    const void* down = nullptr;
    void* out = nullptr;
};

// Rounds of each build timed in turn, and how much faster than the rules' plan another build
// must be to be kept.
inline constexpr int kLessonBuildRounds = 3;
inline constexpr double kLessonBuildMargin = 0.02;

// Times the builds of these tiles and shape (lessonTiledBuilds) on `buffers` and keeps the
// fastest for every later launch of them at this shape in this process; whether it launched
// anything (false where the choice was made before). Writes only `buffers.out`.
Result<bool> chooseLessonTiledBuild(const LessonTiles& tiles, DType dtype, const MlpShape& shape,
                                    const LessonTiledBuffers& buffers, void* stream,
                                    const CancelToken& cancel);

// The choice in words ("registers for 1 block an SM chosen: 0.642 ms, against 0.699 ms with no
// register bound"), or nothing before one was made.
std::string lessonTiledChoice(const LessonTiles& tiles, DType dtype, const MlpShape& shape);

Status launchLessonTiled(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                         const MlpShape& shape, const void* x, const void* gate, const void* up,
                         const void* down, void* out, void* stream);

// Registers, spills, shared memory and occupancy of the entry point this shape runs.
KernelResources lessonTiledResources(const LessonTiledKernel& kernel, const LessonTiles& tiles,
                                     const MlpShape& shape);

}  // namespace fusescope::mlp
