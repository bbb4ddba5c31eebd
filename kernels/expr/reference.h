#pragma once
// The chain evaluated in double from the float32 inputs: the value every variant's output is
// checked against, with a bound on how far a float32 evaluation may honestly be from it. The
// bound is carried through the chain: each operation adds its own rounding (a few float32 units
// of its result, more for the library's special functions) to the errors of its operands
// scaled by its derivative, so cancellation (x - m near zero) widens it where it must and a
// wrong operation still lands far outside it.
#include <cstdint>
#include <vector>

#include "core/cancel_token.h"
#include "expr/expression.h"

namespace fusescope::expr {

struct ReferenceValue {
    double value = 0.0;
    double bound = 0.0;  // a float32 result within kReferenceRoundings * 2^-24 * bound passes
};

// Float32 rounding units (2^-24 of the bound) a result may be away from the reference.
inline constexpr double kReferenceRoundings = 8.0;

// The value of every output at element i, in Program::outputs order.
void evaluateReference(const Program& program, const float* const* inputs, std::uint64_t i,
                       ReferenceValue* outputs);

// How far `actual` is from the reference, in float32 rounding units of its bound (0 when equal;
// a NaN where the reference is NaN, and a saturated or infinite value where the exact value is
// beyond float32's range with the same sign, count as equal; a NaN elsewhere is infinitely far).
double roundingsAway(const ReferenceValue& reference, float actual);

// Checks one output array of n elements against the reference (every element up to
// 2^20, a spread sample above, as the built-in pipelines) and for elements left at the poison
// value. Asks `cancel` per block; a cancelled check reports not ok.
struct ExpressionCheck {
    double worstRoundings = 0.0;
    std::uint64_t unwrittenElements = 0;
    std::uint64_t comparedElements = 0;
    std::uint64_t worstIndex = 0;  // where worstRoundings was found
    double expectedThere = 0.0;
    float actualThere = 0.0f;
    std::uint64_t firstUnwrittenIndex = 0;  // where unwrittenElements > 0
    bool ok = false;
};
ExpressionCheck checkOutput(const Program& program, int output, const float* const* inputs,
                            const float* values, std::uint64_t n, const CancelToken& cancel = {});

// The uniform range the chain's inputs are filled from: positive where a function of the chain
// is defined for positive values only (log, sqrt, rsqrt), else both signs.
struct InputRange {
    float low = 0.0f;
    float high = 0.0f;
};
InputRange inputRange(const Program& program);

}  // namespace fusescope::expr
