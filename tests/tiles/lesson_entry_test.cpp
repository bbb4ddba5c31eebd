// Which of the lesson kernel's entry points runs a shape: the one without bounds checks where
// every tile is whole, the one that checks only x's rows where M alone is partial (decode), the
// checked one elsewhere.
#include <gtest/gtest.h>

#include "pipelines/mlp/mlp_lesson_tiled.h"

namespace fusescope::mlp {
namespace {

TEST(LessonEntry, WholeTilesRunTheUncheckedEntry) {
    EXPECT_EQ(lessonTiledEntry({32, 64, 64, 64}, {512, 1024, 2816}), LessonTiledEntry::Full);
    EXPECT_EQ(lessonTiledEntry({128, 128, 64, 64}, {512, 4096, 14336}), LessonTiledEntry::Full);
}

TEST(LessonEntry, APartialMTileAloneChecksOnlyTheRows) {
    // Decode-1 (Llama-3-8B): one row of a 16-row M tile, every weight tile whole.
    EXPECT_EQ(lessonTiledEntry({16, 32, 128, 128}, {1, 4096, 14336}), LessonTiledEntry::Rows);
    EXPECT_EQ(lessonTiledEntry({64, 64, 32, 128}, {70, 1024, 2816}), LessonTiledEntry::Rows);
}

TEST(LessonEntry, AnyPartialWeightTileRunsTheCheckedEntry) {
    // H not a whole BLOCK_H, then not a whole BLOCK_N (the output's columns), then I not a whole
    // BLOCK_I; each with whole and with partial M tiles.
    for (std::int64_t m : {512, 70}) {
        EXPECT_EQ(lessonTiledEntry({32, 64, 128, 64}, {m, 1088, 2816}), LessonTiledEntry::Edge);
        EXPECT_EQ(lessonTiledEntry({32, 128, 64, 64}, {m, 1088, 2816}), LessonTiledEntry::Edge);
        EXPECT_EQ(lessonTiledEntry({32, 64, 64, 128}, {m, 1024, 2752}), LessonTiledEntry::Edge);
    }
}

}  // namespace
}  // namespace fusescope::mlp
