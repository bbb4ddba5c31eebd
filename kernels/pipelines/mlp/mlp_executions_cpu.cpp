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
        const std::optional<MlpVariant> variant = variantNamed(call.variant);
        if (!variant) return Status(ErrorCode::InvalidArgument, "no MLP variant " + call.variant);
        const auto& b = call.buffers;
        if (b.size() != 4 && b.size() != 5)
            return Status(ErrorCode::InvalidArgument,
                          "an MLP kernel takes x, gate_up, down, [intermediates,] out");
        const MlpHostPointers pointers{b[0], b[1], b[2], b.size() == 5 ? b[3] : nullptr, b.back()};
        return runMlpCpuKernel(*variant, call.kernelIndex, shapeOf(*call.problem),
                               mlpDtypeOf(*call.problem), pointers, target.hostThreads,
                               tilesOf(*call.problem));
    }
};

}  // namespace

void addMlpCpuExecutions(ExecutionCatalog& catalog) {
    catalog.emplace(std::string(kMlpExecution), std::make_unique<MlpCpuExecution>());
}

}  // namespace fusescope::mlp
