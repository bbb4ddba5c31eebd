#include <array>

#include "expr/expression.h"

namespace fusescope::expr {
namespace {

// In OpKind order. FLOPs as the built-in kernels count them: silu is negate, exp, add, divide.
constexpr std::array<OpInfo, 16> kOps = {{
    {OpKind::Add, "+", "add", 2, false, 1.0},
    {OpKind::Subtract, "-", "sub", 2, false, 1.0},
    {OpKind::Multiply, "*", "mul", 2, false, 1.0},
    {OpKind::Divide, "/", "div", 2, false, 1.0},
    {OpKind::Negate, "-", "neg", 1, false, 1.0},
    {OpKind::Exp, "exp", "exp", 1, true, 1.0},
    {OpKind::Log, "log", "log", 1, true, 1.0},
    {OpKind::Sqrt, "sqrt", "sqrt", 1, true, 1.0},
    {OpKind::Rsqrt, "rsqrt", "rsqrt", 1, true, 1.0},
    {OpKind::Sigmoid, "sigmoid", "sigmoid", 1, true, 4.0},
    {OpKind::Silu, "silu", "silu", 1, true, 4.0},
    {OpKind::Tanh, "tanh", "tanh", 1, true, 1.0},
    // 0.5 x (1 + tanh(c (x + 0.044715 x^3))): 7 arithmetic operations and a tanh.
    {OpKind::Gelu, "gelu", "gelu", 1, true, 8.0},
    {OpKind::Abs, "abs", "abs", 1, true, 1.0},
    {OpKind::Min, "min", "min", 2, true, 1.0},
    {OpKind::Max, "max", "max", 2, true, 1.0},
}};

}  // namespace

const OpInfo& opInfo(OpKind kind) {
    return kOps[static_cast<std::size_t>(kind)];
}

std::optional<OpKind> functionNamed(std::string_view name) {
    for (const OpInfo& op : kOps)
        if (op.function && op.name == name) return op.kind;
    return std::nullopt;
}

std::string functionNamesText() {
    std::string text;
    for (const OpInfo& op : kOps) {
        if (!op.function) continue;
        if (!text.empty()) text += ", ";
        text += op.name;
    }
    return text;
}

std::string Program::nameOf(int operation) const {
    for (const NamedValue& named : names)
        if (named.value.kind == Operand::Kind::Value && named.value.index == operation)
            return named.name;
    return {};
}

int Program::outputOf(int operation) const {
    for (std::size_t k = 0; k < outputs.size(); ++k)
        if (outputs[k].operation == operation) return static_cast<int>(k);
    return -1;
}

}  // namespace fusescope::expr
