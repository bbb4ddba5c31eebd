// Affine chain out = x*2 + 3 (lesson, part A): registry entry, CPU reference and CPU kernels.
// The CUDA kernels are in affine.cu.
#include <cstdint>

#include "pipelines/cpu_kernels.h"
#include "pipelines/families.h"

namespace fusescope {
namespace {

double affineReference(const float* const* inputs, std::uint64_t i) {
    return static_cast<double>(inputs[0][i]) * 2.0 + 3.0;
}

// The CPU kernels mirror the CUDA ones; the vector width is honoured by processing four
// elements per step so that the two widths run different code on the CPU too.
template <typename Op>
void unaryRange(const float* in, float* out, std::uint64_t begin, std::uint64_t end, int width,
                Op op) {
    std::uint64_t i = begin;
    if (width == 4)
        for (; i + 4 <= end; i += 4) {
            const float a = in[i], b = in[i + 1], c = in[i + 2], d = in[i + 3];
            out[i] = op(a), out[i + 1] = op(b), out[i + 2] = op(c), out[i + 3] = op(d);
        }
    for (; i < end; ++i) out[i] = op(in[i]);
}

void cpuMul2(void* const* args, std::uint64_t begin, std::uint64_t end, int width) {
    unaryRange(static_cast<const float*>(args[0]), static_cast<float*>(args[1]), begin, end, width,
               [](float x) { return x * 2.0f; });
}
void cpuAdd3(void* const* args, std::uint64_t begin, std::uint64_t end, int width) {
    unaryRange(static_cast<const float*>(args[0]), static_cast<float*>(args[1]), begin, end, width,
               [](float t) { return t + 3.0f; });
}
void cpuAffineFused(void* const* args, std::uint64_t begin, std::uint64_t end, int width) {
    unaryRange(static_cast<const float*>(args[0]), static_cast<float*>(args[1]), begin, end, width,
               [](float x) { return x * 2.0f + 3.0f; });
}

}  // namespace

CpuKernelFn affineCpuKernel(KernelId id) {
    switch (id) {
        case KernelId::AffineMul2:
            return cpuMul2;
        case KernelId::AffineAdd3:
            return cpuAdd3;
        case KernelId::AffineFused:
            return cpuAffineFused;
        default:
            return nullptr;
    }
}

PipelineSpec makeAffinePipeline() {
    const BufferSpec x{"x", BufferRole::Input, -4.0f, 4.0f};
    const BufferSpec tmp{"tmp", BufferRole::Scratch};
    const BufferSpec out{"out", BufferRole::Output};

    PipelineSpec p;
    p.name = "affine";
    p.title = "Affine chain";
    p.formula = "out = x*2 + 3";
    p.description =
        "The lesson's trivial chain: two elementwise ops. Unfused, the intermediate tmp makes a "
        "round trip through HBM; fused, it never leaves a register.";
    p.intermediate = "tmp";
    p.reference = affineReference;

    VariantSpec unfused;
    unfused.name = "unfused";
    unfused.title = "Unfused (2 kernels through tmp)";
    unfused.description = "tmp = x*2 in one kernel, out = tmp + 3 in a second: 4 passes.";
    unfused.fused = false;
    unfused.buffers = {x, tmp, out};
    unfused.kernels = {
        {KernelId::AffineMul2, "mul2", {"x", "tmp"}, {"x"}, {"tmp"}},
        {KernelId::AffineAdd3, "add3", {"tmp", "out"}, {"tmp"}, {"out"}},
    };

    VariantSpec fused;
    fused.name = "fused";
    fused.title = "Fused (1 kernel)";
    fused.description = "out = x*2 + 3 in one kernel, tmp kept in a register: 2 passes.";
    fused.fused = true;
    fused.buffers = {x, out};
    fused.kernels = {{KernelId::AffineFused, "affine_fused", {"x", "out"}, {"x"}, {"out"}}};

    p.variants = {unfused, fused};
    return p;
}

}  // namespace fusescope
