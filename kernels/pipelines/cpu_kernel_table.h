#pragma once
// The table of every family's CPU kernels, for the instruction set of the file that includes
// it (cpu_kernels_baseline.cpp, cpu_kernels_avx2.cpp). Internal linkage, as its kernels.
#include <algorithm>
#include <array>
#include <iterator>

#include "pipelines/affine_cpu_kernels.h"
#include "pipelines/swiglu_cpu_kernels.h"

namespace fusescope {
namespace {

constexpr auto kCpuKernelTable = [] {
    std::array<CpuKernelEntry, std::size(kAffineCpuKernels) + std::size(kSwigluCpuKernels)> all{};
    auto next = std::copy(std::begin(kAffineCpuKernels), std::end(kAffineCpuKernels), all.begin());
    std::copy(std::begin(kSwigluCpuKernels), std::end(kSwigluCpuKernels), next);
    return all;
}();

}  // namespace
}  // namespace fusescope
