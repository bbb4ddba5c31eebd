#pragma once
// The MLP's code in each backend's catalog, and the mapping from a run's Problem to the MLP's own
// types. Every MLP kernel takes the buffers x, gate_up, down, [intermediates,] out.
#include <optional>
#include <string_view>

#include "pipelines/kernel_execution.h"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_shape.h"
#include "pipelines/problem.h"

namespace fusescope::mlp {

inline constexpr std::string_view kMlpExecution = "mlp";
// The compute roof's GEMM (CUDA only): buffers a, b, c of the problem's M x M.
inline constexpr std::string_view kMlpComputeRoofExecution = "mlp_compute_roof";

MlpShape shapeOf(const Problem& problem);
MlpDtype mlpDtypeOf(const Problem& problem);
LessonTiles tilesOf(const Problem& problem);
// The production fusion's prefill tiles (tile_m, tile_i); the defaults where the problem has none.
production::Tiles productionTilesOf(const Problem& problem);
std::optional<MlpVariant> variantNamed(std::string_view name);

// A launch's variant and buffers (x, gate_up, down, intermediates or null, out), or the reason
// the call is not one of the MLP's.
struct MlpCallBuffers {
    MlpVariant variant = MlpVariant::Unfused;
    void* x = nullptr;
    void* gateUp = nullptr;
    void* down = nullptr;
    void* scratch = nullptr;
    void* out = nullptr;
};
Result<MlpCallBuffers> mlpCallBuffers(const KernelCall& call);

void addMlpCpuExecutions(ExecutionCatalog& catalog);
void addMlpCudaExecutions(ExecutionCatalog& catalog);  // CUDA builds only

}  // namespace fusescope::mlp
