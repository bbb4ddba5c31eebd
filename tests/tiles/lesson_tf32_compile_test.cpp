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

constexpr std::uint64_t kH200SharedOptIn = 232448;

using testsupport::expectCompiles;
using testsupport::hasOption;
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
        const int stages = lessonTiledStages(tiles, DType::Tf32, kH200SharedOptIn, 9);
        ASSERT_LE(lessonTiledSharedBytes(tiles, DType::Tf32, stages, 9), kH200SharedOptIn);
        const CompileRequest request = lessonTiledCompileRequest(tiles, DType::Tf32, stages, 9, 0);
        EXPECT_TRUE(hasOption(request, "-DFS_TF32=1"));
        expectCompiles(**nvrtc, request);
    }
}

TEST(LessonTf32Compile, SharedMemoryHoldsThreePaddedStagesWhereTheyFit) {
    // Default tiles: row pitches of 80 floats; per stage x 32 rows, gate and up 64 each; one down
    // tile of 64 rows; the hidden tile 32 rows: (3 x 160 + 64 + 32) x 80 x 4 bytes.
    EXPECT_EQ(lessonTiledSharedBytes(kLessonDefaultTiles, DType::Tf32, 3, 9), 184320u);
    EXPECT_EQ(lessonTiledStages(kLessonDefaultTiles, DType::Tf32, kH200SharedOptIn, 9), 3);
    // 16/64/128/64 (pitches 144 and 80): 3 stages need 274,432 bytes, 2 need 191,488.
    const LessonTiles deep{16, 64, 128, 64};
    EXPECT_EQ(lessonTiledSharedBytes(deep, DType::Tf32, 3, 9), 274432u);
    EXPECT_EQ(lessonTiledStages(deep, DType::Tf32, kH200SharedOptIn, 9), 2);
    EXPECT_EQ(lessonTiledSharedBytes(deep, DType::Tf32, 2, 9), 191488u);
    // A 16-column tile needs no padding: 16/16/16/16 is (3 x 48 + 16 + 16) x 16 x 4.
    EXPECT_EQ(lessonTiledSharedBytes({16, 16, 16, 16}, DType::Tf32, 3, 9), 11264u);
    // float32 stays one unpipelined stage.
    EXPECT_EQ(lessonTiledStages(kLessonDefaultTiles, DType::Float32, kH200SharedOptIn, 9), 1);
}

}  // namespace
}  // namespace fusescope::mlp
