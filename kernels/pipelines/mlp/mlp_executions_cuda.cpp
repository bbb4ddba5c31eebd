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
        const std::optional<MlpVariant> variant = variantNamed(call.variant);
        if (!variant) return Status(ErrorCode::InvalidArgument, "no MLP variant " + call.variant);
        const auto& b = call.buffers;
        if (b.size() != 4 && b.size() != 5)
            return Status(ErrorCode::InvalidArgument,
                          "an MLP kernel takes x, gate_up, down, [intermediates,] out");
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
        const MlpDeviceBuffers buffers{b[0], b[1], b[2], b.size() == 5 ? b[3] : nullptr, b.back()};
        return runMlpCudaKernel(**context, *variant, shapeOf(*call.problem),
                                mlpDtypeOf(*call.problem), buffers, tilesOf(*call.problem),
                                call.kernelIndex);
    }
};

}  // namespace

void addMlpCudaExecutions(ExecutionCatalog& catalog) {
    catalog.emplace(std::string(kMlpExecution), std::make_unique<MlpCudaExecution>());
}

}  // namespace fusescope::mlp
