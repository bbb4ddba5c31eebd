// The MLP on the CPU backend: each kernel of a variant runs as its CPU stage (mlp_cpu.h).
#include <string>

#include "pipelines/mlp/mlp_cpu.h"
#include "pipelines/mlp/mlp_executions.h"

namespace fusescope::mlp {
namespace {

class MlpCpuExecution final : public KernelExecution {
  public:
    Status supports(const ExecutionTarget&, const KernelCall& call) override {
        if (!variantNamed(call.variant))
            return Status(ErrorCode::InvalidArgument, "no MLP variant " + call.variant);
        const LessonTiles tiles = tilesOf(*call.problem);
        if (tiles.blockM <= 0 || tiles.blockN <= 0 || tiles.blockH <= 0 || tiles.blockI <= 0)
            return Status(ErrorCode::InvalidArgument, "tile sizes must be positive");
        return Status::ok();
    }

    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        const Result<MlpCallBuffers> b = mlpCallBuffers(call);
        if (!b) return b.status();
        const MlpHostPointers pointers{b->x, b->gateUp, b->down, b->scratch, b->out};
        return runMlpCpuKernel(b->variant, call.kernelIndex, shapeOf(*call.problem),
                               mlpDtypeOf(*call.problem), pointers, target.hostThreads,
                               tilesOf(*call.problem), target.cancel);
    }
};

}  // namespace

void addMlpCpuExecutions(ExecutionCatalog& catalog) {
    catalog.emplace(std::string(kMlpExecution), std::make_unique<MlpCpuExecution>());
}

}  // namespace fusescope::mlp
