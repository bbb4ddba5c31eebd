#pragma once
// CPU versions of every kernel, beside each family's reference. A CPU kernel processes the
// element range [begin, end); the CPU backend splits N across threads.
//
// Vector width 1 runs scalar code (one element per instruction, as the lesson's scalar
// kernels); width 4 runs SIMD code. The SIMD code is built twice, for the x86-64 baseline
// (SSE2) and for AVX2+FMA, and the best set this CPU runs is chosen at run time: one binary
// then runs at memory speed on new CPUs and still runs on old ones.
#include <cstdint>
#include <span>
#include <string_view>

namespace fusescope {

using CpuKernelFn = void (*)(void* const* args, std::uint64_t begin, std::uint64_t end);

struct CpuKernelEntry {
    const char* execution;  // the KernelSpec's execution key
    CpuKernelFn scalar;     // vector width 1
    CpuKernelFn simd;       // vector width 4
};

enum class CpuInstructionSet { Baseline, Avx2Fma };

// The instruction sets this build has kernels for and this CPU runs, best first.
CpuInstructionSet bestCpuInstructionSet();
std::string_view cpuInstructionSetName(CpuInstructionSet set);

// nullptr if the key has none or the set is not available here.
CpuKernelFn cpuKernel(std::string_view execution, int vectorWidth, CpuInstructionSet set);
CpuKernelFn cpuKernel(std::string_view execution, int vectorWidth);  // bestCpuInstructionSet()

// One table per instruction set, from cpu_kernels_baseline.cpp and cpu_kernels_avx2.cpp; the
// AVX2 table is empty where the build has no AVX2 code or the CPU cannot run it.
std::span<const CpuKernelEntry> baselineCpuKernels();
std::span<const CpuKernelEntry> avx2FmaCpuKernels();

}  // namespace fusescope
