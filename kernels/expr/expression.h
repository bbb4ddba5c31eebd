#pragma once
// An elementwise chain over named float32 arrays, as the learner types it
// ("t = x * 2; out = t + 3"), after parsing: its inputs, scalar parameters, operations in
// evaluation order, named values and outputs. Pure data, no Qt, no CUDA.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipelines/element_operations.h"

namespace fusescope::expr {

// The limits of the language: what one kernel's registers and argument list comfortably hold.
inline constexpr int kMaxInputs = 8;
inline constexpr int kMaxOperations = 16;

// The operations are the element programs' (pipelines/element_operations.h): one table.
using OpKind = ElementOp;

// How the learner writes an operation, beside the element programs' name and arguments.
struct OpInfo {
    OpKind kind;
    std::string_view name;        // "silu", "+"
    std::string_view identifier;  // the element programs' name, in generated names: "add"
    int arity;                    // 1 or 2
    bool function;                // written as a call: silu(x), min(a, b)
    double flopsPerElement;       // useful floating-point operations, as the built-in kernels count
};

const OpInfo& opInfo(OpKind kind);
// The function called `name` (exp ... max), or nothing.
std::optional<OpKind> functionNamed(std::string_view name);
// Every function name, for messages: "exp, log, ..., max".
std::string functionNamesText();

// What an operation reads: an input array, a scalar parameter, a constant, or the value of an
// earlier operation.
struct Operand {
    enum class Kind { Input, Parameter, Constant, Value };
    Kind kind = Kind::Constant;
    int index = 0;          // input, parameter or operation index
    float constant = 0.0f;  // Kind::Constant

    bool operator==(const Operand&) const = default;
};

struct Operation {
    OpKind kind = OpKind::Add;
    std::vector<Operand> operands;  // opInfo(kind).arity of them
    int group = 0;                  // the kernel of the learner's split ("|" in the text)
    std::size_t position = 0;       // where the operation is written in the text
};

struct Parameter {
    std::string name;
    float value = 0.0f;
};

// `name = ...` that is read later: an intermediate the chain refers to by name.
struct NamedValue {
    std::string name;
    Operand value;
};

// `name = ...` that nothing reads: an array the chain writes.
struct Output {
    std::string name;
    int operation = 0;  // the operation whose value it holds
};

struct Program {
    std::string text;
    std::vector<std::string> inputs;  // in order of first use
    std::vector<Parameter> parameters;
    std::vector<Operation> operations;  // every operand refers to an earlier operation
    std::vector<NamedValue> names;
    std::vector<Output> outputs;  // in the order they are assigned
    int groups = 1;               // kernels of the learner's split: one more than the "|"s

    // The name the chain gives an operation's value (the first, if several), or "".
    std::string nameOf(int operation) const;
    // The first output holding the operation's value, or -1.
    int outputOf(int operation) const;
};

}  // namespace fusescope::expr
