#pragma once
// What the tests of the run-time compiled lesson kernel share: the H200's shared memory a block,
// its tiles as text for a trace, a compile request's options, and NVRTC compiling a request into
// an image.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/runtime_compiler.h"

namespace testsupport {

// The shared memory a block may use on the H200 (its opt-in limit).
inline constexpr std::uint64_t kH200SharedOptIn = 232448;

// "BLOCK_M/BLOCK_N/BLOCK_H/BLOCK_I", as the tile explorer and tiles_triton.py write them.
inline std::string lessonTilesText(const fusescope::mlp::LessonTiles& t) {
    return std::to_string(t.blockM) + "/" + std::to_string(t.blockN) + "/" +
           std::to_string(t.blockH) + "/" + std::to_string(t.blockI);
}

// The compile request for these tiles on compute capability `computeMajor`.0 with `stages` copy
// slots (the copies as far ahead as the rules let them run) and a launch-bounds minimum of
// `minBlocks`, the threads the rules give for a grid of `grid` blocks a multiprocessor (0:
// unknown) on the H200's shared memory.
inline fusescope::CompileRequest lessonRequest(const fusescope::mlp::LessonTiles& tiles,
                                               fusescope::DType dtype, int stages, int minBlocks,
                                               int computeMajor, std::uint64_t grid = 0) {
    fusescope::mlp::LessonTiledPlan plan =
        fusescope::mlp::lessonTiledPlan(tiles, dtype, computeMajor, kH200SharedOptIn, grid);
    plan.stages = stages;
    plan.copiesAhead = fusescope::mlp::lessonTiledCopiesAhead(tiles, dtype, stages, computeMajor);
    plan.minBlocks = minBlocks;
    return fusescope::mlp::lessonTiledCompileRequest(tiles, dtype, plan, computeMajor, 0);
}

inline bool hasOption(const fusescope::CompileRequest& request, const std::string& option) {
    for (const std::string& o : request.options)
        if (o == option) return true;
    return false;
}

// NVRTC compiles `request` into an image of some size holding the lesson kernel's three entry
// points (their names are in the image's symbol table); a failure prints the compiler's log.
// Returns the image's bytes (empty where it failed), for a test to look further.
inline std::string expectCompiles(fusescope::ModuleCompiler& nvrtc,
                                  const fusescope::CompileRequest& request) {
    std::string log;
    fusescope::Result<std::vector<unsigned char>> image = nvrtc.compile(request, log);
    if (!image) {
        ADD_FAILURE() << image.status().message() << "\n" << log;
        return {};
    }
    EXPECT_GT(image->size(), 1000u);
    std::string bytes(image->begin(), image->end());
    for (std::string_view entry :
         {fusescope::mlp::kLessonTiledFullKernel, fusescope::mlp::kLessonTiledRowsKernel,
          fusescope::mlp::kLessonTiledEdgeKernel})
        EXPECT_NE(bytes.find(std::string(entry) + '\0'), std::string::npos) << entry;
    return bytes;
}

}  // namespace testsupport
