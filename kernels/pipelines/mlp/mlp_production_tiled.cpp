#include "pipelines/mlp/mlp_production_tiled.h"

#include <algorithm>

#include "pipelines/mlp/embedded_source.h"
#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "pipelines/mlp/mlp_production_tiled_source.h"
#include "pipelines/registry.h"

namespace fusescope::mlp {
namespace {

template <std::size_t N>
bool allowed(const std::array<int, N>& values, int value) {
    return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

std::string_view productionTiledSource() {
    static const std::string text = joinedSource(kProductionTiledSourceParts);
    return text;
}

std::uint64_t productionTiledSharedBytes(const production::Tiles& tiles) {
    const auto m = static_cast<std::uint64_t>(tiles.tileM),
               i = static_cast<std::uint64_t>(tiles.tileI);
    return kProductionTiledStages * (m + 2 * i) * production::kStepDepth * 2;
}

int productionTiledMinBlocks(const production::Tiles& tiles,
                             std::uint64_t sharedBytesPerMultiprocessor) {
    return 2 * productionTiledSharedBytes(tiles) <= sharedBytesPerMultiprocessor ? 2 : 1;
}

CompileRequest productionTiledCompileRequest(const production::Tiles& tiles, int minBlocks,
                                             int computeMajor, int computeMinor) {
    CompileRequest request;
    request.name = "mlp_production_tiled.cu";
    request.source = std::string(productionTiledSource());
    request.options = {"-std=c++17", "-DFS_TM=" + std::to_string(tiles.tileM),
                       "-DFS_TI=" + std::to_string(tiles.tileI),
                       "-DFS_MIN_BLOCKS=" + std::to_string(minBlocks)};
    request.architecture = "sm_" + std::to_string(computeMajor) + std::to_string(computeMinor);
    return request;
}

std::optional<std::string> productionDtypeRefusal(DType dtype) {
    if (dtype != DType::Tf32) return std::nullopt;
    return "the production fusion has no TF32 path on the GPU (its gate_up kernel and decode "
           "GEMVs multiply in float32 on the CUDA cores or in bfloat16): run it in float32 or "
           "bfloat16";
}

std::optional<std::string> productionTilesRefusal(const production::Tiles& tiles, DType dtype) {
    if (std::optional<std::string> refusal = productionDtypeRefusal(dtype)) return refusal;
    if (!allowed(production::kAllowedTileM, tiles.tileM))
        return "TILE_M " + std::to_string(tiles.tileM) + " is not one of the allowed values (" +
               allowedText(production::kAllowedTileM) + ": the M tile is whole 32-row copy passes)";
    if (!allowed(production::kAllowedTileI, tiles.tileI))
        return "TILE_I " + std::to_string(tiles.tileI) + " is not one of the allowed values (" +
               allowedText(production::kAllowedTileI) + ": 16 columns for each of 2, 4 or 8 warps)";
    if (dtype != DType::Bfloat16 && !(tiles == production::kDefaultTiles))
        return "float32 runs only the precompiled CUDA-core kernel (TILE_M " +
               std::to_string(production::kTileM) + ", TILE_I " +
               std::to_string(production::kTileI) + "); other tiles compile for bfloat16";
    return std::nullopt;
}

bool productionTiledFull(const production::Tiles& tiles, const MlpShape& shape) {
    return shape.M % tiles.tileM == 0 && shape.H % production::kStepDepth == 0 &&
           shape.I % tiles.tileI == 0;
}

bool productionRunsCompiled(const production::Tiles& tiles, const MlpShape& shape, DType dtype) {
    if (shape.M <= kDecodeMaxRows || dtype != DType::Bfloat16) return false;
    return lessonTilesAlwaysCompiled() || !(tiles == production::kDefaultTiles);
}

}  // namespace fusescope::mlp
