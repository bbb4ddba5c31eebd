#pragma once
// The lesson's fused kernel for any allowed tiles, compiled at run time (mlp_lesson_tiled.cu,
// embedded in the program by CMake). This part needs no CUDA: the source, the compile request
// for a device, and the kernel's shared memory; mlp_lesson_tiled_cuda.cpp loads and launches.
#include <cstdint>
#include <string>
#include <string_view>

#include "pipelines/mlp/mlp_shape.h"
#include "platform/runtime_compiler.h"

namespace fusescope::mlp {

inline constexpr int kLessonTiledThreads = 128;
inline constexpr std::string_view kLessonTiledFullKernel = "swiglu_mlp_lesson_tiled_full";
inline constexpr std::string_view kLessonTiledEdgeKernel = "swiglu_mlp_lesson_tiled_edge";

std::string_view lessonTiledSource();

// Shared memory of the tiled kernel: bfloat16 and tf32 keep `stages` copies of the x, gate and up
// tiles and of down's tile, plus the hidden tile (tf32 with row pitches of 16 modulo 32 floats);
// float32 one stage with rows padded by one word.
std::uint64_t lessonTiledSharedBytes(const LessonTiles& tiles, DType dtype, int stages);
// The copy pipeline's depth: 3 stages where they fit `sharedLimit`, else 2 (float32: 1).
int lessonTiledStages(const LessonTiles& tiles, DType dtype, std::uint64_t sharedLimit);

// What NVRTC compiles for these tiles on a device of compute capability major.minor.
CompileRequest lessonTiledCompileRequest(const LessonTiles& tiles, DType dtype, int stages,
                                         int computeMajor, int computeMinor);

// Whether shapes are whole tiles, so the _full kernel (no bounds checks) runs.
bool lessonTiledFull(const LessonTiles& tiles, const MlpShape& shape);

// Tile sweeps compile even the default tiles at run time, so every cell runs the same code;
// otherwise the default tiles run the precompiled, hand-tuned kernel. Process-wide.
void setLessonTilesAlwaysCompiled(bool always);
bool lessonTilesAlwaysCompiled();

}  // namespace fusescope::mlp
