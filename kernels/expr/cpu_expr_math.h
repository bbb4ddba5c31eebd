#pragma once
// Float math the expression lab's CPU loops need beyond pipelines/cpu_vector_math.h, written the
// same way so that a compiler vectorizes it (no calls, no branches, no errno). Internal linkage,
// as that header, for each instruction-set build of the loops.
#include <cstdint>
#include <cstring>
#include <limits>

#include "pipelines/cpu_vector_math.h"

namespace fusescope {
namespace {

// ln(x) = e ln2 + ln(m), m in [sqrt(1/2), sqrt(2)): the mantissa from the bits, then the
// Cephes single-precision polynomial for ln(1 + f). NaN below zero, -inf at zero.
inline float logPolynomial(float x) {
    std::int32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    std::int32_t exponent = ((bits >> 23) & 0xFF) - 126;
    std::int32_t mantissaBits = (bits & 0x007FFFFF) | 0x3F000000;  // m in [0.5, 1)
    float m;
    std::memcpy(&m, &mantissaBits, sizeof m);
    constexpr float kSqrtHalf = 0.707106781186547524f;
    const bool small = m < kSqrtHalf;
    exponent -= small ? 1 : 0;
    const float f = small ? m + m - 1.0f : m - 1.0f;
    const float z = f * f;
    float y = 7.0376836292e-2f;
    y = y * f - 1.1514610310e-1f;
    y = y * f + 1.1676998740e-1f;
    y = y * f - 1.2420140846e-1f;
    y = y * f + 1.4249322787e-1f;
    y = y * f - 1.6668057665e-1f;
    y = y * f + 2.0000714765e-1f;
    y = y * f - 2.4999993993e-1f;
    y = y * f + 3.3333331174e-1f;
    y = y * f * z;
    const auto e = static_cast<float>(exponent);
    y += -2.12194440e-4f * e;
    y += -0.5f * z;
    float result = f + y + 0.693359375f * e;
    // Zero and subnormals (taken as zero, as flush-to-zero hardware does) give -inf.
    result =
        x < std::numeric_limits<float>::min() ? -std::numeric_limits<float>::infinity() : result;
    result = x < 0.0f ? std::numeric_limits<float>::quiet_NaN() : result;
    result = x == std::numeric_limits<float>::infinity() ? x : result;
    return result;
}

// tanh: an odd polynomial near zero (Cephes), where 1 - 2 / (e^2x + 1) would cancel; that
// formula, with its sign, beyond.
inline float tanhFloat(float x) {
    const float a = x < 0.0f ? -x : x;
    const float z = x * x;
    float p = -5.70498872745e-3f;
    p = p * z + 2.06390887954e-2f;
    p = p * z - 5.37397155531e-2f;
    p = p * z + 1.33314422036e-1f;
    p = p * z - 3.33332819422e-1f;
    const float near = p * z * x + x;
    const float far = 1.0f - 2.0f / (expPolynomial(2.0f * a) + 1.0f);
    return a < 0.625f ? near : (x < 0.0f ? -far : far);
}

inline float sigmoidFloat(float x) {
    return 1.0f / (1.0f + expPolynomial(-x));
}

inline float geluFloat(float x) {
    return 0.5f * x * (1.0f + tanhFloat(0.7978845608f * (x + 0.044715f * x * x * x)));
}

}  // namespace
}  // namespace fusescope
