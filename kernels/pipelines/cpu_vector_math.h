#pragma once
// Float math for the CPU kernels, written so that a compiler can vectorize it: no calls, no
// branches, no errno. Included by each instruction-set build of the kernels (cpu_kernels_*.cpp),
// so it has internal linkage: every build keeps its own code (an inline function with external
// linkage would let the linker pick the AVX2 copy for the baseline build).
//
// Why not libm's expf: a call per element cannot be vectorized, and a scalar expf loop is
// compute bound, so fused SwiGLU would not run at memory speed. libmvec's vector expf needs
// -ffast-math and glibc on x86; this polynomial works for every build and instruction set.
#include <algorithm>
#include <cstdint>
#include <cstring>

namespace fusescope {
namespace {

// exp(x) = 2^n * p(r), with x = n*ln2 + r and |r| <= ln2/2. ln2 is split into a part exact in
// float and a correction, so r is accurate; p is the degree-7 Taylor polynomial of e^r.
// Maximum relative error 2e-7 (below 2 ulp) for x in [-87, 88], checked against double exp by
// cpu_vector_math_test. Outside that range the exponent is clamped, so the result saturates
// near 1e-38 or 2e38 instead of reaching 0 or inf (SiLU's limits stay right); beyond |x| = 2^22
// the reduction loses precision. The clamp is on the integer exponent: a float clamp of x lets
// GCC split the loop into constant and computed paths that no longer vectorize well.
inline float expPolynomial(float x) {
    constexpr float kLog2e = 1.44269504088896341f;
    constexpr float kLn2High = 0.693145751953125f;  // exact in float: n * kLn2High is exact
    constexpr float kLn2Low = 1.428606765330187045e-06f;
    constexpr float kRoundingShift = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
    const float n = (x * kLog2e + kRoundingShift) - kRoundingShift;
    const float r = (x - n * kLn2High) - n * kLn2Low;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    // 2^n built from its exponent bits, n kept to the normal range [-126, 127].
    const std::int32_t exponent = std::min(std::max(static_cast<std::int32_t>(n), -126), 127);
    const std::int32_t exponentBits = (exponent + 127) * (1 << 23);
    float scale;
    std::memcpy(&scale, &exponentBits, sizeof scale);
    return p * scale;
}

inline float siluFloat(float g) {
    return g / (1.0f + expPolynomial(-g));
}

}  // namespace
}  // namespace fusescope
