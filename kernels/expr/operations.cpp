#include <array>

#include "expr/expression.h"

namespace fusescope::expr {
namespace {

// How each operation is written, in OpKind order. FLOPs as the built-in kernels count them: silu
// is negate, exp, add, divide.
struct Spelling {
    std::string_view name;
    bool function;
    double flopsPerElement;
};
constexpr std::array<Spelling, kElementOps.size()> kSpellings = {{
    {"+", false, 1.0},
    {"-", false, 1.0},
    {"*", false, 1.0},
    {"/", false, 1.0},
    {"-", false, 1.0},
    {"exp", true, 1.0},
    {"log", true, 1.0},
    {"sqrt", true, 1.0},
    {"rsqrt", true, 1.0},
    {"sigmoid", true, 4.0},
    {"silu", true, 4.0},
    {"tanh", true, 1.0},
    // 0.5 x (1 + tanh(c (x + 0.044715 x^3))): 7 arithmetic operations and a tanh.
    {"gelu", true, 8.0},
    {"abs", true, 1.0},
    {"min", true, 1.0},
    {"max", true, 1.0},
}};

// The element programs' table with the spellings beside it.
constexpr std::array<OpInfo, kElementOps.size()> kOps = [] {
    std::array<OpInfo, kElementOps.size()> ops{};
    for (std::size_t k = 0; k < ops.size(); ++k)
        ops[k] = {kElementOps[k].op,    kSpellings[k].name,     kElementOps[k].name,
                  kElementOps[k].arity, kSpellings[k].function, kSpellings[k].flopsPerElement};
    return ops;
}();

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
