#include "expr/reference.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

#include "pipelines/elementwise_family.h"
#include "platform/parallel.h"

namespace fusescope::expr {
namespace {

constexpr double kUnit = 1.0 / 16777216.0;         // 2^-24
constexpr double kGeluScale = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kGeluCubic = 0.044715;

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// The language's gelu, the tanh form the generated kernels compute (the element programs' is
// erf's).
double geluTanh(double x) {
    return 0.5 * x * (1.0 + std::tanh(kGeluScale * (x + kGeluCubic * x * x * x)));
}

// The bound of an operation's value `v` from its operands'. `special` is the rounding, in units
// of the result, of a function computed by a library or polynomial rather than one IEEE
// operation.
double boundOf(OpKind kind, const ReferenceValue& a, const ReferenceValue& b, double v) {
    constexpr double special = 4.0;
    const double x = a.value;
    switch (kind) {
        case OpKind::Add:
        case OpKind::Subtract:
            return a.bound + b.bound + std::abs(v);
        case OpKind::Multiply:
            return a.bound * std::abs(b.value) + b.bound * std::abs(x) + std::abs(v);
        case OpKind::Divide:
            return a.bound / std::abs(b.value) + b.bound * std::abs(v / b.value) + std::abs(v);
        case OpKind::Negate:
        case OpKind::Abs:
            return a.bound;
        case OpKind::Min:
        case OpKind::Max:
            return std::max(a.bound, b.bound);
        case OpKind::Exp:
            return v * a.bound + special * v;
        case OpKind::Log:
            return a.bound / std::abs(x) + special * std::abs(v);
        case OpKind::Sqrt:
            return a.bound / (2.0 * v) + std::abs(v);
        case OpKind::Rsqrt:
            return a.bound * 0.5 * v / std::abs(x) + special * v;
        case OpKind::Sigmoid:
            return a.bound * v * (1.0 - v) + special * v;
        case OpKind::Silu: {
            const double s = sigmoid(x);
            return a.bound * std::abs(s + v * (1.0 - s)) + special * std::abs(v);
        }
        case OpKind::Tanh:
            return a.bound * (1.0 - v * v) + special * std::abs(v);
        case OpKind::Gelu: {
            const double t = std::tanh(kGeluScale * (x + kGeluCubic * x * x * x));
            const double slope = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * kGeluScale *
                                                       (1.0 + 3.0 * kGeluCubic * x * x);
            // 1 + t cancels where x is very negative: the rounding is that of the terms.
            return a.bound * std::abs(slope) +
                   2.0 * special * std::abs(x) * 0.5 * (1.0 + std::abs(t));
        }
    }
    return 0.0;
}

// The operation's value, by the element programs' evaluator (gelu in the language's form), and
// its bound.
ReferenceValue apply(OpKind kind, const ReferenceValue& a, const ReferenceValue& b) {
    const double v =
        kind == OpKind::Gelu ? geluTanh(a.value) : applyElementOp(kind, a.value, b.value);
    return {v, boundOf(kind, a, b, v)};
}

bool isPoison(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits == 0xFFFFFFFFu;
}

std::uint32_t spread(std::uint64_t s) {
    std::uint64_t x = s * 0x9E3779B97F4A7C15ull;
    return static_cast<std::uint32_t>(x >> 32);
}

}  // namespace

void evaluateReference(const Program& program, const float* const* inputs, std::uint64_t i,
                       ReferenceValue* outputs) {
    ReferenceValue values[kMaxOperations];
    const auto operand = [&](const Operand& o) -> ReferenceValue {
        switch (o.kind) {
            case Operand::Kind::Input:
                return {inputs[o.index][i], 0.0};
            case Operand::Kind::Parameter:
                return {program.parameters[o.index].value, 0.0};
            case Operand::Kind::Constant:
                return {o.constant, 0.0};
            case Operand::Kind::Value:
                return values[o.index];
        }
        return {};
    };
    for (std::size_t k = 0; k < program.operations.size(); ++k) {
        const Operation& operation = program.operations[k];
        const ReferenceValue a = operand(operation.operands[0]);
        const ReferenceValue b =
            operation.operands.size() > 1 ? operand(operation.operands[1]) : ReferenceValue{};
        values[k] = apply(operation.kind, a, b);
    }
    for (std::size_t k = 0; k < program.outputs.size(); ++k)
        outputs[k] = values[program.outputs[k].operation];
}

double roundingsAway(const ReferenceValue& reference, float actual) {
    const double expected = reference.value;
    if (std::isnan(expected)) return std::isnan(actual) ? 0.0 : INFINITY;
    if (std::isnan(actual)) return INFINITY;
    // Beyond float32's range: a float evaluation saturates or overflows, either is right.
    constexpr double kNearLimit = 1e38;
    if (std::abs(expected) > FLT_MAX)
        return std::abs(actual) >= kNearLimit && (actual > 0) == (expected > 0) ? 0.0 : INFINITY;
    const double difference = std::abs(static_cast<double>(actual) - expected);
    if (difference == 0.0) return 0.0;
    const double allowed = kUnit * reference.bound;
    return allowed > 0.0 ? difference / allowed : INFINITY;
}

ExpressionCheck checkOutput(const Program& program, int output, const float* const* inputs,
                            const float* values, std::uint64_t n, const CancelToken& cancel) {
    constexpr std::uint64_t kSampleElements = std::uint64_t{1} << 20;
    constexpr std::uint64_t kTailElements = 64;
    const bool sampled = n > kSampleElements;
    // Sampled: one element of each equal stretch at a varying offset, then the last elements.
    const std::uint64_t stretches = sampled ? kSampleElements - kTailElements : n;
    const std::uint64_t stretch = sampled ? n / stretches : 1;
    const std::uint64_t compared = sampled ? stretches + kTailElements : n;
    const auto indexOf = [&](std::uint64_t s) {
        if (!sampled) return s;
        if (s >= stretches) return n - kTailElements + (s - stretches);
        return s * stretch + spread(s) % stretch;
    };

    ExpressionCheck check;
    check.comparedElements = compared;
    std::mutex merge;
    const std::optional<UnwrittenElements> unwritten = findUnwritten(values, n, cancel);
    const bool poisonScanned = unwritten.has_value();
    if (unwritten) {
        check.unwrittenElements = unwritten->count;
        check.firstUnwrittenIndex = unwritten->first;
    }
    const bool compareDone = parallelFor(
        compared, hardwareThreads(), cancel, 64, [&](std::uint64_t begin, std::uint64_t end) {
            ExpressionCheck local;
            std::vector<ReferenceValue> outputs(program.outputs.size());
            for (std::uint64_t s = begin; s < end; ++s) {
                const std::uint64_t i = indexOf(s);
                if (isPoison(values[i])) continue;
                evaluateReference(program, inputs, i, outputs.data());
                const double away = roundingsAway(outputs[output], values[i]);
                if (away > local.worstRoundings ||
                    (std::isinf(away) && !std::isinf(local.worstRoundings))) {
                    local.worstRoundings = away;
                    local.worstIndex = i;
                    local.expectedThere = outputs[output].value;
                    local.actualThere = values[i];
                }
            }
            std::lock_guard lock(merge);
            if (local.worstRoundings > check.worstRoundings) {
                check.worstRoundings = local.worstRoundings;
                check.worstIndex = local.worstIndex;
                check.expectedThere = local.expectedThere;
                check.actualThere = local.actualThere;
            }
        });
    check.ok = poisonScanned && compareDone && check.unwrittenElements == 0 &&
               check.worstRoundings <= kReferenceRoundings;
    return check;
}

InputRange inputRange(const Program& program) {
    for (const Operation& operation : program.operations)
        if (operation.kind == OpKind::Log || operation.kind == OpKind::Sqrt ||
            operation.kind == OpKind::Rsqrt)
            return {0.5f, 4.0f};
    return {-4.0f, 4.0f};
}

}  // namespace fusescope::expr
