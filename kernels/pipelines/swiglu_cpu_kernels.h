#pragma once
// The SwiGLU CPU kernels, instantiated by each instruction-set build (cpu_kernels_*.cpp).
// Arguments are in the registry's order (swiglu.cpp).
#include "pipelines/cpu_kernels.h"
#include "pipelines/cpu_streams.h"
#include "pipelines/cpu_vector_math.h"

namespace fusescope {
namespace {

constexpr auto kSilu = [](float g) { return siluFloat(g); };
constexpr auto kMultiply = [](float a, float b) { return a * b; };
constexpr auto kSiluTimes = [](float g, float u) { return siluFloat(g) * u; };

// gate, up, scratch, out: two loops through the scratch, as in the lab's starter.
template <typename Loops>
void swigluScratchCpu(void* const* args, std::uint64_t begin, std::uint64_t end) {
    Loops::map(input(args, 0), output(args, 2), begin, end, kSilu);
    Loops::zip(input(args, 2), input(args, 1), output(args, 3), begin, end, kMultiply);
}
// gate, scratch
template <typename Loops>
void siluCpu(void* const* args, std::uint64_t begin, std::uint64_t end) {
    Loops::map(input(args, 0), output(args, 1), begin, end, kSilu);
}
// scratch, up, out
template <typename Loops>
void multiplyCpu(void* const* args, std::uint64_t begin, std::uint64_t end) {
    Loops::zip(input(args, 0), input(args, 1), output(args, 2), begin, end, kMultiply);
}
// gate, up, out: silu stays in a register.
template <typename Loops>
void swigluFusedCpu(void* const* args, std::uint64_t begin, std::uint64_t end) {
    Loops::zip(input(args, 0), input(args, 1), output(args, 2), begin, end, kSiluTimes);
}

constexpr CpuKernelEntry kSwigluCpuKernels[] = {
    {"swiglu_scratch", swigluScratchCpu<ScalarLoops>, swigluScratchCpu<SimdLoops>},
    {"silu", siluCpu<ScalarLoops>, siluCpu<SimdLoops>},
    {"mul", multiplyCpu<ScalarLoops>, multiplyCpu<SimdLoops>},
    {"swiglu_fused", swigluFusedCpu<ScalarLoops>, swigluFusedCpu<SimdLoops>},
};

}  // namespace
}  // namespace fusescope
