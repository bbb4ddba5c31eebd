// The MLP on the CUDA backend: each kernel of a variant (its own kernels and cuBLAS calls) is
// enqueued on the backend's stream, with a cuBLAS handle the backend keeps for the run.
#include <string>

#include "pipelines/mlp/mlp_cuda.h"
#include "pipelines/mlp/mlp_executions.h"

namespace fusescope::mlp {
namespace {

class MlpCudaExecution final : public KernelExecution {
  public:
    Status supports(const ExecutionTarget&, const KernelCall& call) override {
        const std::optional<MlpVariant> variant = variantNamed(call.variant);
        if (!variant) return Status(ErrorCode::InvalidArgument, "no MLP variant " + call.variant);
        return checkCudaProblem(*variant, shapeOf(*call.problem), mlpDtypeOf(*call.problem),
                                tilesOf(*call.problem));
    }

    Status enqueue(const ExecutionTarget& target, const KernelCall& call) override {
        const Result<MlpCallBuffers> b = mlpCallBuffers(call);
        if (!b) return b.status();
        if (!target.state)
            return Status(ErrorCode::InvalidArgument, "the CUDA backend gave no execution state");
        Result<MlpCudaContext*> context = target.state->get<MlpCudaContext>(
            "mlp.cublas", [&]() -> Result<std::shared_ptr<MlpCudaContext>> {
                Result<std::unique_ptr<MlpCudaContext>> made =
                    MlpCudaContext::createOnStream(target.stream);
                if (!made) return made.status();
                return std::shared_ptr<MlpCudaContext>(std::move(*made));
            });
        if (!context) return context.status();
        const MlpDeviceBuffers buffers{b->x, b->gateUp, b->down, b->scratch, b->out};
        return runMlpCudaKernel(**context, b->variant, shapeOf(*call.problem),
                                mlpDtypeOf(*call.problem), buffers, tilesOf(*call.problem),
                                call.kernelIndex);
    }
};

}  // namespace

void addMlpCudaExecutions(ExecutionCatalog& catalog) {
    catalog.emplace(std::string(kMlpExecution), std::make_unique<MlpCudaExecution>());
}

}  // namespace fusescope::mlp
