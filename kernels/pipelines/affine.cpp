// Affine chain out = x*2 + 3 (lesson, part A): registry entry and CPU reference.
// The CPU kernels are in affine_cpu_kernels.h, the CUDA kernels in affine.cu.
#include <cstdint>

#include "pipelines/elementwise_family.h"
#include "pipelines/families.h"

namespace fusescope {
namespace {

double affineReference(const float* const* inputs, std::uint64_t i) {
    return static_cast<double>(inputs[0][i]) * 2.0 + 3.0;
}

}  // namespace

PipelineSpec makeAffinePipeline() {
    const BufferSpec x{"x", BufferRole::Input, {"N"}, 1, -4.0f, 4.0f};
    const BufferSpec tmp{"tmp", BufferRole::Scratch, {"N"}};
    const BufferSpec out{"out", BufferRole::Output, {"N"}};

    PipelineSpec p;
    p.name = "affine";
    p.title = "Affine chain";
    p.formula = "out = x*2 + 3";
    p.description =
        "The lesson's trivial chain: two elementwise ops. Unfused, the intermediate tmp makes a "
        "round trip through HBM; fused, it never leaves a register.";
    p.intermediate = "tmp";

    VariantSpec unfused;
    unfused.name = "unfused";
    unfused.title = "Unfused (2 kernels through tmp)";
    unfused.description = "tmp = x*2 in one kernel, out = tmp + 3 in a second: 4 passes.";
    unfused.fused = false;
    unfused.buffers = {x, tmp, out};
    unfused.plan = elementwisePlan({
        {"mul2", {"x", "tmp"}, {"x"}, {"tmp"}, 1.0},
        {"add3", {"tmp", "out"}, {"tmp"}, {"out"}, 1.0},
    });

    VariantSpec fused;
    fused.name = "fused";
    fused.title = "Fused (1 kernel)";
    fused.description = "out = x*2 + 3 in one kernel, tmp kept in a register: 2 passes.";
    fused.fused = true;
    fused.baseline = unfused.name;
    fused.buffers = {x, out};
    fused.plan = elementwisePlan({{"affine_fused", {"x", "out"}, {"x"}, {"out"}, 2.0}});

    p.variants = {unfused, fused};
    declareElementwise(p, affineReference);
    return p;
}

}  // namespace fusescope
