#include "pipelines/mlp/mlp_lesson_tiled.h"

#include <atomic>

#include "pipelines/mlp/mlp_lesson_tiled_source.h"

namespace fusescope::mlp {
namespace {

std::atomic<bool> alwaysCompiled{false};

}  // namespace

std::string_view lessonTiledSource() {
    return kLessonTiledSourceText;
}

std::uint64_t lessonTiledSharedBytes(const LessonTiles& tiles, DType dtype, int stages) {
    const auto m = static_cast<std::uint64_t>(tiles.blockM),
               n = static_cast<std::uint64_t>(tiles.blockN),
               h = static_cast<std::uint64_t>(tiles.blockH),
               i = static_cast<std::uint64_t>(tiles.blockI);
    if (dtype == DType::Bfloat16) {
        const std::uint64_t stage = (m * h + 2 * i * h) * 2;
        const std::uint64_t down = n * i * 2;
        return static_cast<std::uint64_t>(stages) * (stage + down) + m * i * 2;
    }
    if (dtype == DType::Tf32) {
        // Row pitches of 16 modulo 32 floats (conflict-free 16-byte fragment loads).
        const std::uint64_t pitchH = h % 32 == 16 ? h : h + 16;
        const std::uint64_t pitchI = i % 32 == 16 ? i : i + 16;
        const std::uint64_t stage = (m * pitchH + 2 * i * pitchH) * 4;
        const std::uint64_t down = n * pitchI * 4;
        return static_cast<std::uint64_t>(stages) * (stage + down) + m * pitchI * 4;
    }
    return (m * (h + 1) + 2 * i * (h + 1) + n * (i + 1) + m * (i + 1)) * 4;
}

int lessonTiledStages(const LessonTiles& tiles, DType dtype, std::uint64_t sharedLimit) {
    if (dtype == DType::Float32) return 1;
    return lessonTiledSharedBytes(tiles, dtype, 3) <= sharedLimit ? 3 : 2;
}

CompileRequest lessonTiledCompileRequest(const LessonTiles& tiles, DType dtype, int stages,
                                         int computeMajor, int computeMinor) {
    CompileRequest request;
    request.name = "mlp_lesson_tiled.cu";
    request.source = std::string(lessonTiledSource());
    request.options = {"-std=c++17",
                       "-DFS_BM=" + std::to_string(tiles.blockM),
                       "-DFS_BN=" + std::to_string(tiles.blockN),
                       "-DFS_BH=" + std::to_string(tiles.blockH),
                       "-DFS_BI=" + std::to_string(tiles.blockI),
                       std::string("-DFS_BF16=") + (dtype == DType::Bfloat16 ? "1" : "0"),
                       std::string("-DFS_TF32=") + (dtype == DType::Tf32 ? "1" : "0"),
                       "-DFS_STAGES=" + std::to_string(stages)};
    request.architecture = "sm_" + std::to_string(computeMajor) + std::to_string(computeMinor);
    return request;
}

bool lessonTiledFull(const LessonTiles& tiles, const MlpShape& shape) {
    return shape.M % tiles.blockM == 0 && shape.H % tiles.blockH == 0 &&
           shape.H % tiles.blockN == 0 && shape.I % tiles.blockI == 0;
}

void setLessonTilesAlwaysCompiled(bool always) {
    alwaysCompiled.store(always);
}

bool lessonTilesAlwaysCompiled() {
    return alwaysCompiled.load();
}

}  // namespace fusescope::mlp
