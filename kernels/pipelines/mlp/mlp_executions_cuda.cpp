// The MLP on the CUDA backend: every kernel a variant declares (its own kernels and cuBLAS calls)
// under its execution key, enqueued on the backend's stream in an NVTX range named
// "mlp/<variant>/<kernel>", with a cuBLAS handle the backend keeps for the run. Whether a problem
// can run is the declaration's to say (mlp_pipeline.cpp); whether code compiled at run time loads
// is said here.
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <string>
#include <utility>

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

class NvtxRange {
  public:
    explicit NvtxRange(const KernelCall& call) {
        const std::string name =
            std::string(kPipelineName) + "/" + call.variant + "/" + call.kernelName;
        nvtxRangePushA(name.c_str());
    }
    ~NvtxRange() { nvtxRangePop(); }
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};

// One MLP kernel's code: the call's buffers resolved, the context made, the launch in its range.
class MlpCudaKernel : public KernelExecution {
  public:
    Status enqueue(const ExecutionTarget& target, const KernelCall& call) final {
        const Result<MlpCallBuffers> b = mlpCallBuffers(call);
        if (!b) return b.status();
        Result<MlpCudaContext*> context = contextFor(target);
        if (!context) return context.status();
        const NvtxRange range(call);
        return launch(**context, *call.problem, *b);
    }

  protected:
    virtual Status launch(MlpCudaContext& context, const Problem& problem,
                          const MlpCallBuffers& b) = 0;
};

using Launch = Status (*)(MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b);

// A cuBLAS call or a precompiled kernel with nothing to choose at run time.
class FixedKernel final : public MlpCudaKernel {
  public:
    explicit FixedKernel(Launch code) : launch_(code) {}

  protected:
    Status launch(MlpCudaContext& context, const Problem& problem,
                  const MlpCallBuffers& b) override {
        return launch_(context, shapeOf(problem), problem.dtype, b);
    }

  private:
    Launch launch_;
};

cudaStream_t streamOf(const MlpCudaContext& context) {
    return static_cast<cudaStream_t>(context.stream());
}

// The lesson kernel, compiled at run time for tiles or a dtype (tf32) the program has no
// precompiled code for (or for every tile during a tile sweep).
class LessonKernel final : public MlpCudaKernel {
  public:
    Status supports(const ExecutionTarget& target, const KernelCall& call) override {
        const Problem& p = *call.problem;
        if (!runtimeCompiled(p)) return Status::ok();
        if (Status s = compileLessonTiledBuilds(tilesOf(p), p.dtype, shapeOf(p), target.cancel); !s)
            return s;
        Result<const LessonTiledKernel*> kernel =
            lessonTiledKernel(tilesOf(p), p.dtype, shapeOf(p), target.cancel);
        return kernel ? Status::ok() : kernel.status();
    }

    std::vector<CompileRequest> compileRequests(const ExecutionTarget&,
                                                const KernelCall& call) override {
        if (!runtimeCompiled(*call.problem)) return {};
        Result<std::vector<CompileRequest>> requests = lessonTiledRequestsForDevice(
            tilesOf(*call.problem), call.problem->dtype, shapeOf(*call.problem));
        if (!requests) return {};  // supports() reports why
        return *requests;
    }

    Result<bool> choose(const ExecutionTarget& target, const KernelCall& call) override {
        const Problem& p = *call.problem;
        if (!runtimeCompiled(p)) return false;
        const Result<MlpCallBuffers> b = mlpCallBuffers(call);
        if (!b) return b.status();
        return chooseLessonTiledBuild(tilesOf(p), p.dtype, shapeOf(p),
                                      {b->x, b->gate, b->up, b->down, b->out}, target.stream,
                                      target.cancel);
    }

    KernelResources resources(const ExecutionTarget&, const KernelCall& call) override {
        const Problem& p = *call.problem;
        if (!runtimeCompiled(p)) return lessonFusedResources(p.dtype, shapeOf(p));
        Result<const LessonTiledKernel*> kernel =
            lessonTiledKernel(tilesOf(p), p.dtype, shapeOf(p));
        if (!kernel) return {};
        KernelResources resources = lessonTiledResources(**kernel, tilesOf(p), shapeOf(p));
        resources.choice = lessonTiledChoice(tilesOf(p), p.dtype, shapeOf(p));
        return resources;
    }

  protected:
    Status launch(MlpCudaContext& context, const Problem& p, const MlpCallBuffers& b) override {
        const LessonTiles tiles = tilesOf(p);
        if (!runtimeCompiled(p))
            return launchLessonFused(p.dtype, tiles, shapeOf(p), b.x, b.gate, b.up, b.down, b.out,
                                     streamOf(context));
        Result<const LessonTiledKernel*> kernel = lessonTiledKernel(tiles, p.dtype, shapeOf(p));
        if (!kernel) return kernel.status();
        return launchLessonTiled(**kernel, tiles, shapeOf(p), b.x, b.gate, b.up, b.down, b.out,
                                 context.stream());
    }

  private:
    static bool runtimeCompiled(const Problem& p) {
        return lessonTilesAlwaysCompiled() || !lessonTilesCompiled(tilesOf(p), p.dtype);
    }
};

// The production fusion's prefill gate_up kernel, compiled at run time for tiles other than the
// precompiled kernel's (or for every tile during a tile sweep: a sweep compares one kernel, so
// not the Hopper kernel the default tiles run on compute capability 9.0).
class ProductionGateUpKernel final : public MlpCudaKernel {
  public:
    Status supports(const ExecutionTarget& target, const KernelCall& call) override {
        if (!compiled(*call.problem)) return Status::ok();
        Result<const TiledKernel*> kernel =
            productionTiledKernel(productionTilesOf(*call.problem), target.cancel);
        return kernel ? Status::ok() : kernel.status();
    }

    std::vector<CompileRequest> compileRequests(const ExecutionTarget&,
                                                const KernelCall& call) override {
        if (!compiled(*call.problem)) return {};
        Result<CompileRequest> request =
            productionTiledRequestForDevice(productionTilesOf(*call.problem));
        if (!request) return {};  // supports() reports why
        return {*request};
    }

    KernelResources resources(const ExecutionTarget&, const KernelCall& call) override {
        const Problem& p = *call.problem;
        if (!compiled(p)) return gateUpSiluResources(p.dtype, shapeOf(p));
        const production::Tiles tiles = productionTilesOf(p);
        Result<const TiledKernel*> kernel = productionTiledKernel(tiles);
        if (!kernel) return {};
        return productionTiledResources(**kernel, tiles, shapeOf(p));
    }

  protected:
    Status launch(MlpCudaContext& context, const Problem& p, const MlpCallBuffers& b) override {
        if (!compiled(p))
            return launchGateUpSilu(p.dtype, shapeOf(p), b.x, b.gate, b.up, b.h, streamOf(context));
        const production::Tiles tiles = productionTilesOf(p);
        Result<const TiledKernel*> kernel = productionTiledKernel(tiles);
        if (!kernel) return kernel.status();
        return launchProductionTiled(**kernel, tiles, shapeOf(p), b.x, b.gate, b.up, b.h,
                                     context.stream());
    }

  private:
    static bool compiled(const Problem& p) {
        return productionRunsCompiled(productionTilesOf(p), shapeOf(p), p.dtype);
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
        return gemmRowMajorABt(**context, call.problem->dtype, call.buffers[0], n, call.buffers[1],
                               n, call.buffers[2], n, n, n, n);
    }
};

}  // namespace

void addMlpCudaExecutions(ExecutionCatalog& catalog) {
    catalog.emplace(std::string(kMlpComputeRoofExecution),
                    std::make_unique<MlpComputeRoofExecution>());
    // Row-major products through cuBLAS: out (rows x cols) = a (rows x k) * b (cols x k)^T.
    const std::pair<std::string_view, Launch> fixed[] = {
        {kernel::kGemmGate,
         [](MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b) {
             return gemmRowMajorABt(c, t, b.x, s.H, b.gate, s.H, b.g, s.I, s.M, s.I, s.H);
         }},
        {kernel::kGemmUp,
         [](MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b) {
             return gemmRowMajorABt(c, t, b.x, s.H, b.up, s.H, b.u, s.I, s.M, s.I, s.H);
         }},
        {kernel::kSilu,
         [](MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b) {
             return launchSiluInPlace(t, b.g, s.M * s.I, streamOf(c));
         }},
        {kernel::kMultiply,
         [](MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b) {
             return launchMultiply(t, b.g, b.u, b.h, s.M * s.I, streamOf(c));
         }},
        {kernel::kGemmDown,
         [](MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b) {
             return gemmRowMajorABt(c, t, b.h, s.I, b.down, s.I, b.out, s.H, s.M, s.H, s.I);
         }},
        {kernel::kGemvGateUpSilu,
         [](MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b) {
             return launchGemvGateUpSilu(t, s, b.x, b.gate, b.up, b.h, streamOf(c));
         }},
        {kernel::kGemvDown,
         [](MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b) {
             return launchGemvDown(t, s, b.h, b.down, b.out, streamOf(c));
         }},
        // One product against the 2I x H gate_up matrix: row m of g holds g's I values, then u's.
        {kernel::kGemmGateUp,
         [](MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b) {
             return gemmRowMajorABt(c, t, b.x, s.H, b.gate, s.H, b.g, 2 * s.I, s.M, 2 * s.I, s.H);
         }},
        {kernel::kSiluMul,
         [](MlpCudaContext& c, const MlpShape& s, DType t, const MlpCallBuffers& b) {
             return launchSiluMulRows(t, b.g, b.h, s.M, s.I, streamOf(c));
         }},
    };
    for (const auto& [name, code] : fixed)
        catalog.emplace(executionKey(name), std::make_unique<FixedKernel>(code));
    catalog.emplace(executionKey(kernel::kLesson), std::make_unique<LessonKernel>());
    catalog.emplace(executionKey(kernel::kGemmGateUpSilu),
                    std::make_unique<ProductionGateUpKernel>());
}

}  // namespace fusescope::mlp
