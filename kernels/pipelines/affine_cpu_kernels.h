#pragma once
// The affine chain's CPU kernels, instantiated by each instruction-set build
// (cpu_kernels_*.cpp). Arguments are in the registry's order (affine.cpp).
#include "pipelines/cpu_kernels.h"
#include "pipelines/cpu_streams.h"

namespace fusescope {
namespace {

constexpr auto kTimesTwo = [](float x) { return x * 2.0f; };
constexpr auto kPlusThree = [](float t) { return t + 3.0f; };
constexpr auto kAffine = [](float x) { return x * 2.0f + 3.0f; };

// x, tmp
template <typename Loops>
void timesTwoCpu(void* const* args, std::uint64_t begin, std::uint64_t end) {
    Loops::map(input(args, 0), output(args, 1), begin, end, kTimesTwo);
}
// tmp, out
template <typename Loops>
void plusThreeCpu(void* const* args, std::uint64_t begin, std::uint64_t end) {
    Loops::map(input(args, 0), output(args, 1), begin, end, kPlusThree);
}
// x, out
template <typename Loops>
void affineFusedCpu(void* const* args, std::uint64_t begin, std::uint64_t end) {
    Loops::map(input(args, 0), output(args, 1), begin, end, kAffine);
}

constexpr CpuKernelEntry kAffineCpuKernels[] = {
    {"mul2", timesTwoCpu<ScalarLoops>, timesTwoCpu<SimdLoops>},
    {"add3", plusThreeCpu<ScalarLoops>, plusThreeCpu<SimdLoops>},
    {"affine_fused", affineFusedCpu<ScalarLoops>, affineFusedCpu<SimdLoops>},
};

}  // namespace
}  // namespace fusescope
