// The builds a run of the lesson kernel times before keeping one: the rules' plan first, then the
// same plan with the other register bound, each a compile request that differs in that bound
// alone, and both compiled by NVRTC where it is installed (no GPU needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "platform/runtime_compiler.h"
#include "support/lesson_compile.h"

namespace fusescope::mlp {
namespace {

using testsupport::expectCompiles;
using testsupport::kH200SharedOptIn;
using testsupport::lessonTilesText;

std::vector<std::string> optionsWithout(const CompileRequest& request, const std::string& prefix) {
    std::vector<std::string> kept;
    for (const std::string& option : request.options)
        if (option.rfind(prefix, 0) != 0) kept.push_back(option);
    return kept;
}

bool samePlanButTheBound(const LessonTiledPlan& a, const LessonTiledPlan& b) {
    return a.stages == b.stages && a.copiesAhead == b.copiesAhead && a.threads == b.threads &&
           a.sharedBytes == b.sharedBytes && a.refill == b.refill;
}

struct BuildCase {
    LessonTiles tiles;
    DType dtype;
    std::uint64_t gridBlocksPerMultiprocessor;
};

// Tiles whose rules give a bound (mma.sync, TF32 16/16/64/128) and none (wgmma, bfloat16
// 128/32/32/32 at the classroom shape), the cells where the other bound was measured faster.
const BuildCase kCases[] = {{{16, 16, 64, 128}, DType::Tf32, 8},
                            {{128, 32, 32, 32}, DType::Bfloat16, 1},
                            {{32, 64, 64, 64}, DType::Bfloat16, 2}};

TEST(LessonBuilds, TheRulesPlanFirstThenTheOtherRegisterBound) {
    bool sawBound = false, sawNone = false;
    for (const BuildCase& c : kCases) {
        SCOPED_TRACE(lessonTilesText(c.tiles));
        const LessonTiledPlan rules =
            lessonTiledPlan(c.tiles, c.dtype, 9, kH200SharedOptIn, c.gridBlocksPerMultiprocessor);
        const std::vector<LessonTiledPlan> builds = lessonTiledBuilds(rules);
        ASSERT_EQ(builds.size(), 2u);
        EXPECT_EQ(builds[0].minBlocks, rules.minBlocks);
        EXPECT_TRUE(samePlanButTheBound(builds[0], rules));
        EXPECT_TRUE(samePlanButTheBound(builds[1], rules));
        EXPECT_EQ(builds[1].minBlocks, rules.minBlocks > 0 ? 0 : 1);
        (rules.minBlocks > 0 ? sawBound : sawNone) = true;
        const CompileRequest first = lessonTiledCompileRequest(c.tiles, c.dtype, builds[0], 9, 0);
        const CompileRequest second = lessonTiledCompileRequest(c.tiles, c.dtype, builds[1], 9, 0);
        EXPECT_NE(first.options, second.options);
        EXPECT_EQ(optionsWithout(first, "-DFS_MIN_BLOCKS="),
                  optionsWithout(second, "-DFS_MIN_BLOCKS="));
        EXPECT_EQ(first.architecture, second.architecture);
    }
    EXPECT_TRUE(sawBound) << "no case whose rules give a register bound";
    EXPECT_TRUE(sawNone) << "no case whose rules give none";
}

TEST(LessonBuilds, TheBoundInWords) {
    LessonTiledPlan plan;
    plan.minBlocks = 0;
    EXPECT_EQ(lessonTiledBoundText(plan), "no register bound");
    plan.minBlocks = 1;
    EXPECT_EQ(lessonTiledBoundText(plan), "registers for 1 block an SM");
    plan.minBlocks = 3;
    EXPECT_EQ(lessonTiledBoundText(plan), "registers for 3 blocks an SM");
}

TEST(LessonBuilds, NvrtcCompilesBothBuilds) {
    Result<std::unique_ptr<ModuleCompiler>> nvrtc = loadNvrtc();
    if (!nvrtc) GTEST_SKIP() << nvrtc.status().message();
    const BuildCase& c = kCases[0];
    for (const LessonTiledPlan& build :
         lessonTiledBuilds(lessonTiledPlan(c.tiles, c.dtype, 9, kH200SharedOptIn, 8)))
        expectCompiles(**nvrtc, lessonTiledCompileRequest(c.tiles, c.dtype, build, 9, 0));
}

}  // namespace
}  // namespace fusescope::mlp
