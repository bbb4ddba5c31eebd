// The lesson kernel's tf32 code (TF32 mma on the tensor cores) compiled by NVRTC for sm_90 at
// tiles from the smallest to the largest that fit, with no GPU needed; its shared memory and
// pipeline depth. Skips with the reason where NVRTC is not installed.
#include <gtest/gtest.h>

#include <string>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/runtime_compiler.h"
#include "support/lesson_compile.h"

namespace fusescope::mlp {
namespace {

using testsupport::expectCompiles;
using testsupport::hasOption;
using testsupport::kH200SharedOptIn;
using testsupport::lessonRequest;
using testsupport::lessonTilesText;

TEST(LessonTf32Compile, NvrtcCompilesTheTf32KernelForSm90) {
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    if (!nvrtc) GTEST_SKIP() << nvrtc.status().message();
    // Default; smallest; the largest output tile and the deepest H step (2 stages); 16-column
    // warps.
    const LessonTiles cases[] = {kLessonDefaultTiles, {16, 16, 16, 16},    {128, 128, 64, 32},
                                 {16, 64, 128, 64},   {128, 128, 128, 16}, {64, 64, 32, 64},
                                 {128, 16, 16, 128}};
    for (const LessonTiles& tiles : cases) {
        SCOPED_TRACE(lessonTilesText(tiles));
        const int stages = lessonTiledStages(tiles, DType::Tf32, kH200SharedOptIn, 9, 0);
        ASSERT_LE(lessonTiledSharedBytes(tiles, DType::Tf32, stages, 9), kH200SharedOptIn);
        const CompileRequest request = lessonRequest(tiles, DType::Tf32, stages, 1, 9);
        EXPECT_TRUE(hasOption(request, "-DFS_TF32=1"));
        expectCompiles(**nvrtc, request);
    }
}

TEST(LessonTf32Compile, SharedMemoryHoldsUnpaddedStages) {
    // Default tiles, unpadded swizzled rows: per stage x 32 rows of 64 floats, gate and up 64
    // rows each; one down tile of 64 x 64; the hidden tile 32 x 64 in the slot its chunk's last
    // step read: 3 x 160 x 64 x 4 + 64 x 64 x 4 bytes.
    EXPECT_EQ(lessonTiledSharedBytes(kLessonDefaultTiles, DType::Tf32, 3, 9), 139264u);
    EXPECT_TRUE(lessonTiledHiddenInSlot(kLessonDefaultTiles));
    EXPECT_EQ(lessonTiledSharedBytes({16, 16, 16, 16}, DType::Tf32, 3, 9),
              (3u * 48 * 16 + 16 * 16) * 4);
    const LessonTiles deep{16, 64, 128, 64};
    EXPECT_EQ(lessonTiledSharedBytes(deep, DType::Tf32, 3, 9),
              (3u * (16 * 128 + 2 * 64 * 128) + 64 * 64) * 4);
    // Off Hopper, 128 rows with a 16-column H step: a slot (128 x 16 + 2 x 64 x 16 floats) is
    // smaller than the hidden tile (128 x 64), which has shared memory of its own.
    const LessonTiles tall{128, 64, 16, 64};
    EXPECT_FALSE(lessonTiledHiddenInSlot(tall));
    EXPECT_EQ(lessonTiledSharedBytes(tall, DType::Tf32, 3, 8),
              (3u * (128 * 16 + 2 * 64 * 16) + 64 * 64 + 128 * 64) * 4);
    // The kernel is told which, by the host's one rule.
    EXPECT_TRUE(hasOption(lessonRequest(kLessonDefaultTiles, DType::Tf32, 3, 1, 9),
                          "-DFS_HIDDEN_IN_SLOT=1"));
    EXPECT_TRUE(hasOption(lessonRequest(tall, DType::Tf32, 3, 1, 8), "-DFS_HIDDEN_IN_SLOT=0"));
    // float32 stays one unpipelined stage.
    EXPECT_EQ(lessonTiledStages(kLessonDefaultTiles, DType::Float32, kH200SharedOptIn, 9, 0), 1);
}

// Two stages where they let more of the grid's blocks share a multiprocessor than three, the
// grid having more blocks a multiprocessor than three let share one; three where the grid cannot
// fill what two would add.
TEST(LessonTf32Compile, TwoStagesWhereTheGridHasBlocksForThem) {
    // Classroom (M 512, H 1024) on 132 SMs. 16/64/64/32: three stages 70 KiB (3 blocks an SM),
    // two 50 KiB (4); the grid has 512 blocks, 4 an SM.
    const LessonTiles narrow{16, 64, 64, 32};
    const std::uint64_t narrowGrid = lessonTiledBlocksPerMultiprocessor(narrow, 512, 1024, 132);
    EXPECT_EQ(narrowGrid, 4u);
    EXPECT_EQ(lessonTiledStages(narrow, DType::Tf32, kH200SharedOptIn, 9, narrowGrid), 2);
    // 16/128/32/32: three stages let 4 blocks share an SM, more than the grid's 2 an SM.
    const LessonTiles wide{16, 128, 32, 32};
    const std::uint64_t wideGrid = lessonTiledBlocksPerMultiprocessor(wide, 512, 1024, 132);
    EXPECT_EQ(wideGrid, 2u);
    EXPECT_EQ(lessonTiledStages(wide, DType::Tf32, kH200SharedOptIn, 9, wideGrid), 3);
    // At decode (M 1) the grid has one block an SM: it takes a fourth stage.
    EXPECT_EQ(lessonTiledStages(narrow, DType::Tf32, kH200SharedOptIn, 9,
                                lessonTiledBlocksPerMultiprocessor(narrow, 1, 4096, 132)),
              4);
    // bfloat16 keeps its rules.
    EXPECT_EQ(lessonTiledStages(narrow, DType::Bfloat16, kH200SharedOptIn, 9, narrowGrid), 3);
    EXPECT_EQ(lessonTiledBlocksPerMultiprocessor(narrow, 512, 1024, 0), 0u);
}

}  // namespace
}  // namespace fusescope::mlp
