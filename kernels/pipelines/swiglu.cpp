// SwiGLU activation out = silu(gate) * up (the lab; lesson, part B): registry entry and CPU
// reference. The CPU kernels are in swiglu_cpu_kernels.h, the CUDA kernels in swiglu.cu.
#include <cmath>
#include <cstdint>

#include "pipelines/elementwise_family.h"
#include "pipelines/families.h"

namespace fusescope {
namespace {

double swigluReference(const float* const* inputs, std::uint64_t i) {
    const double g = inputs[0][i];
    const double u = inputs[1][i];
    return g / (1.0 + std::exp(-g)) * u;
}

}  // namespace

PipelineSpec makeSwigluPipeline() {
    const BufferSpec gate{"gate", BufferRole::Input, {"N"}, 1, -8.0f, 8.0f};
    const BufferSpec up{"up", BufferRole::Input, {"N"}, 1, -2.0f, 2.0f};
    const BufferSpec scratch{"scratch", BufferRole::Scratch, {"N"}};
    const BufferSpec out{"out", BufferRole::Output, {"N"}};

    PipelineSpec p;
    p.name = "swiglu";
    p.title = "SwiGLU activation";
    p.formula = "out = silu(gate) * up";
    p.description =
        "The activation of modern Transformer MLPs, after the gate and up projections. The SiLU "
        "intermediate either round-trips through an N-sized scratch in HBM or stays in a register.";
    p.intermediate = "scratch";

    VariantSpec scratchVariant;
    scratchVariant.name = "scratch";
    scratchVariant.title = "Scratch (1 kernel, 2 loops)";
    scratchVariant.description =
        "The lab's starter: one kernel with two grid-stride loops through an N-sized global "
        "scratch. 5 passes: read gate, write scratch, read scratch, read up, write out.";
    scratchVariant.buffers = {gate, up, scratch, out};
    // silu: about 4 operations (negate, exp, add, divide), then the multiply.
    scratchVariant.plan = elementwisePlan({{"swiglu_scratch",
                                            {"gate", "up", "scratch", "out"},
                                            {"gate", "scratch", "up"},
                                            {"scratch", "out"},
                                            5.0}});

    VariantSpec twoLaunch;
    twoLaunch.name = "two_launch";
    twoLaunch.title = "Two launches (framework style)";
    twoLaunch.description =
        "What a framework does: a silu kernel writes scratch, a multiply kernel reads it back. "
        "5 passes, 2 launches.";
    twoLaunch.buffers = {gate, up, scratch, out};
    twoLaunch.plan = elementwisePlan({
        {"silu", {"gate", "scratch"}, {"gate"}, {"scratch"}, 4.0},
        {"mul", {"scratch", "up", "out"}, {"scratch", "up"}, {"out"}, 1.0},
    });

    VariantSpec fused;
    fused.name = "fused";
    fused.title = "Fused (1 loop, silu in a register)";
    fused.description =
        "One grid-stride loop: load gate and up, keep silu(gate) in a register, store out. "
        "3 passes and no scratch allocation.";
    fused.fused = true;
    fused.baseline = scratchVariant.name;
    fused.buffers = {gate, up, out};
    fused.plan =
        elementwisePlan({{"swiglu_fused", {"gate", "up", "out"}, {"gate", "up"}, {"out"}, 5.0}});

    p.variants = {scratchVariant, twoLaunch, fused};
    declareElementwise(p, swigluReference);
    return p;
}

}  // namespace fusescope
