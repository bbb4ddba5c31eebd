// The MLP on the CUDA backend: each kernel of a variant (its own kernels and cuBLAS calls) is
// enqueued on the backend's stream, with a cuBLAS handle the backend keeps for the run.
#include <climits>
#include <cstdint>
#include <string>

#include "pipelines/mlp/mlp_cuda.h"
#include "pipelines/mlp/mlp_executions.h"
#include "pipelines/mlp/mlp_launch.h"
#include "pipelines/mlp/mlp_lesson_tiled.h"
#include "pipelines/mlp/mlp_lesson_tiled_cuda.h"
#include "pipelines/mlp/mlp_production_tiled.h"
#include "pipelines/mlp/mlp_production_tiled_cuda.h"

namespace fusescope::mlp {
namespace {

// The MLP's cuBLAS handle on the backend's stream, made on first use.
Result<MlpCudaContext*> contextFor(const ExecutionTarget& target) {
    if (!target.state)
        return Status(ErrorCode::InvalidArgument, "the CUDA backend gave no execution state");
    return target.state->get<MlpCudaContext>(
        "mlp.cublas", [&]() -> Result<std::shared_ptr<MlpCudaContext>> {
            Result<std::unique_ptr<MlpCudaContext>> made =
                MlpCudaContext::createOnStream(target.stream);
            if (!made) return made.status();
            return std::shared_ptr<MlpCudaContext>(std::move(*made));
        });
}

// The lesson kernel runs compiled at run time for tiles or a dtype (tf32) the program has no
// precompiled code for (or for every tile during a tile sweep).
bool runtimeCompiled(const KernelCall& call) {
    return variantNamed(call.variant) == MlpVariant::LessonFused &&
           (lessonTilesAlwaysCompiled() ||
            !lessonTilesCompiled(tilesOf(*call.problem), mlpDtypeOf(*call.problem)));
}

// The production fusion's gate_up kernel (its first at prefill sizes) runs compiled at run time
// for tiles other than the precompiled kernel's (or for every tile during a tile sweep: a sweep
// compares one kernel, so not the Hopper kernel the default tiles run on compute capability 9.0).
bool productionCompiled(const KernelCall& call) {
    return variantNamed(call.variant) == MlpVariant::Production && call.kernelIndex == 0 &&
           productionRunsCompiled(productionTilesOf(*call.problem), shapeOf(*call.problem),
                                  mlpDtypeOf(*call.problem));
}

// The up half of the gate_up buffer: gate's I rows of H come first.
const void* upOf(const MlpCallBuffers& b, const MlpShape& shape, MlpDtype dtype) {
    return static_cast<const unsigned char*>(b.gateUp) + static_cast<std::uint64_t>(shape.I) *
                                                             static_cast<std::uint64_t>(shape.H) *
                                                             elementBytes(dtype);
}

// Why the production fusion cannot run with the problem's tiles, before anything is allocated:
// a refused value, or the run-time compiled kernel failing to compile or load.
Status productionSupports(const KernelCall& call) {
    const production::Tiles tiles = productionTilesOf(*call.problem);
    const MlpShape shape = shapeOf(*call.problem);
    if (std::optional<std::string> refusal = productionDtypeRefusal(mlpDtypeOf(*call.problem)))
        return Status(ErrorCode::InvalidArgument, *refusal);
    if (shape.M <= kDecodeMaxRows) return Status::ok();  // the GEMV kernels take no tiles
    if (std::optional<std::string> refusal =
            productionTilesRefusal(tiles, mlpDtypeOf(*call.problem)))
        return Status(ErrorCode::InvalidArgument, *refusal);
    if (ceilDiv(shape.I, tiles.tileI) > 65535)
        return Status(ErrorCode::InvalidArgument, "I / TILE_I exceeds the grid's 65535 limit");
    if (!productionCompiled(call)) return Status::ok();
    Result<const TiledKernel*> kernel = productionTiledKernel(tiles);
    return kernel ? Status::ok() : kernel.status();
}

class MlpCudaExecution final : public KernelExecution {
  public:
    Status supports(const ExecutionTarget&, const KernelCall& call) override {
        const std::optional<MlpVariant> variant = variantNamed(call.variant);
        if (!variant) return Status(ErrorCode::InvalidArgument, "no MLP variant " + call.variant);
        const MlpShape shape = shapeOf(*call.problem);
        const LessonTiles tiles = tilesOf(*call.problem);
        if (*variant == MlpVariant::Production)
            if (Status s = productionSupports(call); !s) return s;
        if (!runtimeCompiled(call))
            return checkCudaProblem(*variant, shape, mlpDtypeOf(*call.problem), tiles);
        if (shape.M <= 0 || shape.H <= 0 || shape.I <= 0 || shape.M > INT32_MAX ||
            shape.H > INT32_MAX || shape.I > INT32_MAX)
            return Status(ErrorCode::InvalidArgument, "M, H and I must lie in [1, 2^31)");
        if (ceilDiv(shape.H, tiles.blockN) > 65535)
            return Status(ErrorCode::InvalidArgument, "H / BLOCK_N exceeds the grid's 65535 limit");
        Result<const LessonTiledKernel*> kernel =
            lessonTiledKernel(tiles, mlpDtypeOf(*call.problem));
        return kernel ? Status::ok() : kernel.status();
    }

    std::optional<CompileRequest> compileRequest(const ExecutionTarget&,
                                                 const KernelCall& call) override {
        if (productionCompiled(call)) {
            Result<CompileRequest> request =
                productionTiledRequestForDevice(productionTilesOf(*call.problem));
            if (!request) return std::nullopt;  // supports() reports why
            return *request;
        }
        if (!runtimeCompiled(call)) return std::nullopt;
        Result<CompileRequest> request =
            lessonTiledRequestForDevice(tilesOf(*call.problem), mlpDtypeOf(*call.problem));
        if (!request) return std::nullopt;  // supports() reports why
        return *request;
    }

    KernelResources resources(const ExecutionTarget&, const KernelCall& call) override {
        if (productionCompiled(call)) {
            const production::Tiles tiles = productionTilesOf(*call.problem);
            Result<const TiledKernel*> kernel = productionTiledKernel(tiles);
            if (!kernel) return {};
            return productionTiledResources(**kernel, tiles, shapeOf(*call.problem));
        }
        const MlpShape shape = shapeOf(*call.problem);
        if (variantNamed(call.variant) == MlpVariant::Production && call.kernelIndex == 0 &&
            shape.M > kDecodeMaxRows)
            return gateUpSiluResources(mlpDtypeOf(*call.problem), shape);
        if (!runtimeCompiled(call))
            return variantNamed(call.variant) == MlpVariant::LessonFused
                       ? lessonFusedResources(mlpDtypeOf(*call.problem), shape)
                       : KernelResources{};
        const LessonTiles tiles = tilesOf(*call.problem);
        Result<const LessonTiledKernel*> kernel =
            lessonTiledKernel(tiles, mlpDtypeOf(*call.problem));
        if (!kernel) return {};
        return lessonTiledResources(**kernel, tiles, shapeOf(*call.problem));
    }

    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        const Result<MlpCallBuffers> b = mlpCallBuffers(call);
        if (!b) return b.status();
        Result<MlpCudaContext*> context = contextFor(target);
        if (!context) return context.status();
        const MlpShape shape = shapeOf(*call.problem);
        const MlpDtype dtype = mlpDtypeOf(*call.problem);
        if (productionCompiled(call)) {
            const production::Tiles tiles = productionTilesOf(*call.problem);
            Result<const TiledKernel*> kernel = productionTiledKernel(tiles);
            if (!kernel) return kernel.status();
            return launchProductionTiled(**kernel, tiles, shape, b->x, b->gateUp,
                                         upOf(*b, shape, dtype), b->scratch, (*context)->stream());
        }
        if (runtimeCompiled(call)) {
            const LessonTiles tiles = tilesOf(*call.problem);
            Result<const LessonTiledKernel*> kernel = lessonTiledKernel(tiles, dtype);
            if (!kernel) return kernel.status();
            return launchLessonTiled(**kernel, tiles, shape, b->x, b->gateUp,
                                     upOf(*b, shape, dtype), b->down, b->out, (*context)->stream());
        }
        const MlpDeviceBuffers buffers{b->x, b->gateUp, b->down, b->scratch, b->out};
        return runMlpCudaKernel(**context, b->variant, shape, dtype, buffers,
                                tilesOf(*call.problem), call.kernelIndex);
    }
};

// The compute roof: one cuBLAS GEMM, out = a * b^T, all n x n.
class MlpComputeRoofExecution final : public KernelExecution {
  public:
    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        if (call.buffers.size() != 3)
            return Status(ErrorCode::InvalidArgument, "the compute roof takes a, b and c");
        Result<MlpCudaContext*> context = contextFor(target);
        if (!context) return context.status();
        const auto n = static_cast<std::int64_t>(call.problem->dimension("M"));
        return gemmRowMajorABt(**context, mlpDtypeOf(*call.problem), call.buffers[0], n,
                               call.buffers[1], n, call.buffers[2], n, n, n, n);
    }
};

}  // namespace

void addMlpCudaExecutions(ExecutionCatalog& catalog) {
    catalog.emplace(std::string(kMlpComputeRoofExecution),
                    std::make_unique<MlpComputeRoofExecution>());
    catalog.emplace(std::string(kMlpExecution), std::make_unique<MlpCudaExecution>());
}

}  // namespace fusescope::mlp
