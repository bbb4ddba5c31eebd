// The lesson kernel computes SiLU as the lesson's Triton kernel does (ex2.approx, div.full.f32):
// an IEEE division would add its slow path, a subroutine whose name the image keeps, to every
// kernel that divides.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/runtime_compiler.h"
#include "support/lesson_compile.h"

namespace fusescope::mlp {
namespace {

using testsupport::expectCompiles;
using testsupport::lessonRequest;
using testsupport::lessonTilesText;

TEST(LessonSilu, NoKernelCarriesTheIeeeDivisionsSlowPath) {
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    if (!nvrtc) GTEST_SKIP() << nvrtc.status().message();
    // The mma.sync kernel (BLOCK_M 16 and 32) and the wgmma kernel (64), in both tensor-core
    // element types.
    const LessonTiles cases[] = {{16, 32, 128, 128}, {32, 128, 64, 64}, {64, 64, 32, 128}};
    for (const LessonTiles& tiles : cases) {
        SCOPED_TRACE(lessonTilesText(tiles));
        for (const DType dtype : {DType::Bfloat16, DType::Tf32}) {
            SCOPED_TRACE(dtype == DType::Tf32 ? "tf32" : "bf16");
            // The entry points' names are there (expectCompiles), so the image's names are
            // searchable.
            const std::string bytes = expectCompiles(**nvrtc, lessonRequest(tiles, dtype, 3, 1, 9));
            ASSERT_FALSE(bytes.empty());
            EXPECT_EQ(bytes.find("div_rn_noftz_f32_slowpath"), std::string::npos);
        }
    }
}

}  // namespace
}  // namespace fusescope::mlp
