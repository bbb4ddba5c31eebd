#pragma once
// The MLP's kernels in each backend's catalog, and the mapping from a run's Problem to the MLP's
// own types. Every kernel a variant declares (mlp_pipeline.cpp) has its code under its own
// execution key, on the CPU (mlp_executions_cpu.cpp) and on the GPU (mlp_executions_cuda.cpp);
// the order in which a variant launches them is declared once, in its plan. Every MLP kernel
// takes the buffers x, gate_up, down, [intermediates,] out.
#include <string>
#include <string_view>

#include "pipelines/kernel_execution.h"
#include "pipelines/mlp/mlp_host_data.h"
#include "pipelines/mlp/mlp_production_tiles.h"
#include "pipelines/mlp/mlp_shape.h"
#include "pipelines/problem.h"
#include "pipelines/registry.h"

namespace fusescope::mlp {

// The pipeline's and its variants' names, as the declarations spell them.
inline constexpr std::string_view kPipelineName = "mlp";
inline constexpr std::string_view kUnfusedVariant = "unfused";
inline constexpr std::string_view kLessonVariant = "lesson_fused";
inline constexpr std::string_view kProductionVariant = "production";
inline constexpr std::string_view kMergedVariant = "merged_gate_up";

// The kernels' names: shown, the NVTX range's last part, and (prefixed) the execution key.
namespace kernel {
inline constexpr std::string_view kGemmGate = "gemm_gate";
inline constexpr std::string_view kGemmUp = "gemm_up";
inline constexpr std::string_view kSilu = "silu";
inline constexpr std::string_view kMultiply = "multiply";
inline constexpr std::string_view kGemmDown = "gemm_down";
inline constexpr std::string_view kLesson = "swiglu_mlp_lesson";
inline constexpr std::string_view kGemvGateUpSilu = "gemv_gate_up_silu";
inline constexpr std::string_view kGemvDown = "gemv_down";
inline constexpr std::string_view kGemmGateUpSilu = "gemm_gate_up_silu";
inline constexpr std::string_view kGemmGateUp = "gemm_gate_up";
inline constexpr std::string_view kSiluMul = "silu_mul";
}  // namespace kernel

// The catalog key of a kernel's code: "mlp/silu".
std::string executionKey(std::string_view kernelName);
// The compute roof's GEMM (CUDA only): buffers a, b, c of the problem's M x M.
inline constexpr std::string_view kMlpComputeRoofExecution = "mlp_compute_roof";

MlpShape shapeOf(const Problem& problem);
LessonTiles tilesOf(const Problem& problem);
// The production fusion's prefill tiles (tile_m, tile_i); the defaults where the problem has none.
production::Tiles productionTilesOf(const Problem& problem);

// The inputs as the registry's buffers hold them: x, gate_up and down.
HostBuffers hostBuffersOf(const MlpHostInputs& inputs);

// A launch's buffers, with the intermediates where its variant's scratch buffer holds them: g, u
// and h one after the other where it holds three (the merged product's M x 2I rows over g and
// u), h alone where it holds one; null where the variant has no scratch.
struct MlpCallBuffers {
    const void* x = nullptr;
    const void* gate = nullptr;  // gate's I rows of gate_up
    const void* up = nullptr;    // up's I rows, after gate's
    const void* down = nullptr;
    void* g = nullptr;
    void* u = nullptr;
    void* h = nullptr;
    void* out = nullptr;
};
// The buffers of a call, or the reason it is not one of the MLP's.
Result<MlpCallBuffers> mlpCallBuffers(const KernelCall& call);

void addMlpCpuExecutions(ExecutionCatalog& catalog);
void addMlpCudaExecutions(ExecutionCatalog& catalog);  // CUDA builds only

}  // namespace fusescope::mlp
