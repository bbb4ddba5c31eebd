#include <cpuid.h>
#include <immintrin.h>

#include "platform/vector_state.h"

namespace fusescope {
namespace {

__attribute__((target("avx"))) void zeroUpperHalves() {
    _mm256_zeroupper();
}

bool cpuReportsStateInUse() {
    // CPUID leaf 0xD, sub-leaf 1, EAX bit 2: XGETBV with ECX = 1 (XINUSE) is supported.
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid_count(0xD, 1, &eax, &ebx, &ecx, &edx)) return false;
    return (eax & (1u << 2)) != 0;
}

}  // namespace

void clearUpperVectorState() {
    static const bool hasAvx = __builtin_cpu_supports("avx");
    if (hasAvx) zeroUpperHalves();
}

bool upperVectorStateInUse() {
    static const bool canTell = __builtin_cpu_supports("avx") && cpuReportsStateInUse();
    if (!canTell) return false;
    unsigned low = 0, high = 0;
    asm volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(1));
    constexpr unsigned kAvxStateBit = 1u << 2;  // XCR0 component 2: upper halves of YMM0-15
    return (low & kAvxStateBit) != 0;
}

}  // namespace fusescope
