#pragma once
// The operations of elementwise chains, in one table: their names in element programs
// (pipeline_description.h), their number of arguments, and their value in double. The
// expression lab's language (kernels/expr) spells the same operations for the learner.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace fusescope {

enum class ElementOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Negate,
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Sigmoid,
    Silu,
    Tanh,
    Gelu,
    Abs,
    Min,
    Max
};

struct ElementOpInfo {
    ElementOp op;
    std::string_view name;  // in element programs and generated code: "add", "silu"
    int arity;              // 1 or 2
};

// In ElementOp order.
inline constexpr std::array<ElementOpInfo, 16> kElementOps = {{
    {ElementOp::Add, "add", 2},
    {ElementOp::Subtract, "sub", 2},
    {ElementOp::Multiply, "mul", 2},
    {ElementOp::Divide, "div", 2},
    {ElementOp::Negate, "neg", 1},
    {ElementOp::Exp, "exp", 1},
    {ElementOp::Log, "log", 1},
    {ElementOp::Sqrt, "sqrt", 1},
    {ElementOp::Rsqrt, "rsqrt", 1},
    {ElementOp::Sigmoid, "sigmoid", 1},
    {ElementOp::Silu, "silu", 1},
    {ElementOp::Tanh, "tanh", 1},
    {ElementOp::Gelu, "gelu", 1},
    {ElementOp::Abs, "abs", 1},
    {ElementOp::Min, "min", 2},
    {ElementOp::Max, "max", 2},
}};

constexpr const ElementOpInfo& elementOpInfo(ElementOp op) {
    return kElementOps[static_cast<std::size_t>(op)];
}

// The operation an element program calls `name`, or nothing.
std::optional<ElementOp> elementOpNamed(std::string_view name);

// The operation's value in double; unary operations ignore `b`. gelu is the exact form,
// x/2 * (1 + erf(x / sqrt(2))).
double applyElementOp(ElementOp op, double a, double b);

}  // namespace fusescope
