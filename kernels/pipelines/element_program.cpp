#include "pipelines/element_program.h"

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <string_view>

namespace fusescope {
namespace {

enum Op {
    Constant,
    Input,
    Assigned,  // an earlier assignment: a copy of its node's value
    Neg,
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Sigmoid,
    Silu,
    Tanh,
    Gelu,
    Abs,
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max
};

struct OperatorName {
    std::string_view name;
    Op op;
    int arity;
};

constexpr std::array<OperatorName, 19> kOperators = {{
    {"const", Constant, 0}, {"ref", Input, 0}, {"neg", Neg, 1},     {"exp", Exp, 1},
    {"log", Log, 1},        {"sqrt", Sqrt, 1}, {"rsqrt", Rsqrt, 1}, {"sigmoid", Sigmoid, 1},
    {"silu", Silu, 1},      {"tanh", Tanh, 1}, {"gelu", Gelu, 1},   {"abs", Abs, 1},
    {"add", Add, 2},        {"sub", Sub, 2},   {"mul", Mul, 2},     {"div", Div, 2},
    {"min", Min, 2},        {"max", Max, 2},   {"", Assigned, 0},
}};

const OperatorName* findOperator(std::string_view name) {
    if (name.empty()) return nullptr;
    for (const OperatorName& entry : kOperators)
        if (entry.name == name) return &entry;
    return nullptr;
}

Status invalid(std::string message) {
    return Status(ErrorCode::InvalidArgument, std::move(message));
}

double apply(int op, double a, double b) {
    switch (op) {
        case Neg:
            return -a;
        case Exp:
            return std::exp(a);
        case Log:
            return std::log(a);
        case Sqrt:
            return std::sqrt(a);
        case Rsqrt:
            return 1.0 / std::sqrt(a);
        case Sigmoid:
            return 1.0 / (1.0 + std::exp(-a));
        case Silu:
            return a / (1.0 + std::exp(-a));
        case Tanh:
            return std::tanh(a);
        case Gelu:
            return 0.5 * a * (1.0 + std::erf(a / std::sqrt(2.0)));
        case Abs:
            return std::abs(a);
        case Add:
            return a + b;
        case Sub:
            return a - b;
        case Mul:
            return a * b;
        case Div:
            return a / b;
        case Min:
            return std::fmin(a, b);
        case Max:
            return std::fmax(a, b);
        default:
            return a;
    }
}

}  // namespace

int elementOperatorArity(std::string_view op) {
    const OperatorName* found = findOperator(op);
    return found ? found->arity : -1;
}

double EvaluableProgram::evaluate(const float* const* inputs, std::uint64_t i) const {
    std::array<double, kMaxElementProgramNodes> values;
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
        const Node& node = nodes_[k];
        switch (node.op) {
            case Constant:
                values[k] = node.value;
                break;
            case Input:
                values[k] = static_cast<double>(inputs[node.input][i]);
                break;
            case Assigned:
                values[k] = values[static_cast<std::size_t>(node.first)];
                break;
            default:
                values[k] =
                    apply(node.op, values[static_cast<std::size_t>(node.first)],
                          node.second < 0 ? 0.0 : values[static_cast<std::size_t>(node.second)]);
        }
    }
    return nodes_.empty() ? 0.0 : values[nodes_.size() - 1];
}

Result<EvaluableProgram> compileElementProgram(const ElementProgram& program,
                                               const std::vector<std::string>& inputs,
                                               const std::string& result) {
    EvaluableProgram compiled;
    std::map<std::string, int, std::less<>> names;  // assignment -> its node
    std::string where;
    // Appends the tree's nodes in post-order and gives the index of its root.
    std::function<Result<int>(const ElementExpression&, int)> flatten =
        [&](const ElementExpression& expression, int depth) -> Result<int> {
        if (depth > kMaxElementExpressionDepth)
            return invalid(where + " nests deeper than " +
                           std::to_string(kMaxElementExpressionDepth) + " levels");
        const OperatorName* entry = findOperator(expression.op);
        if (!entry) return invalid(where + ": unknown operator '" + expression.op + "'");
        if (expression.args.size() != static_cast<std::size_t>(entry->arity))
            return invalid(where + ": '" + expression.op + "' takes " +
                           std::to_string(entry->arity) + " argument(s), not " +
                           std::to_string(expression.args.size()));
        EvaluableProgram::Node node;
        node.op = entry->op;
        if (entry->op == Constant) {
            if (!std::isfinite(expression.value))
                return invalid(where + ": a constant is not a finite number");
            node.value = expression.value;
        } else if (entry->op == Input) {
            const auto assigned = names.find(expression.name);
            if (assigned != names.end()) {
                node.op = Assigned;
                node.first = assigned->second;
            } else {
                for (std::size_t k = 0; k < inputs.size(); ++k)
                    if (inputs[k] == expression.name) node.input = static_cast<int>(k);
                if (node.input < 0)
                    return invalid(where + ": '" + expression.name +
                                   "' is neither an input nor an earlier assignment");
            }
        }
        for (std::size_t a = 0; a < expression.args.size(); ++a) {
            Result<int> argument = flatten(expression.args[a], depth + 1);
            if (!argument) return argument;
            (a == 0 ? node.first : node.second) = *argument;
        }
        if (compiled.nodes_.size() + 1 >= kMaxElementProgramNodes)
            return invalid("the reference program has more than " +
                           std::to_string(kMaxElementProgramNodes) + " nodes");
        compiled.nodes_.push_back(node);
        return static_cast<int>(compiled.nodes_.size() - 1);
    };
    for (const ElementAssignment& assignment : program.assignments) {
        where = "reference assignment '" + assignment.name + "'";
        if (assignment.name.empty()) return invalid("a reference assignment has no name");
        if (names.count(assignment.name)) return invalid(where + " assigns a name a second time");
        for (const std::string& input : inputs)
            if (input == assignment.name) return invalid(where + " assigns an input");
        Result<int> root = flatten(assignment.value, 0);
        if (!root) return root.status();
        names.emplace(assignment.name, *root);
    }
    const auto found = names.find(result);
    if (found == names.end()) return invalid("the reference program assigns no '" + result + "'");
    // The result last, where evaluate() reads it.
    EvaluableProgram::Node last;
    last.op = Assigned;
    last.first = found->second;
    compiled.nodes_.push_back(last);
    return compiled;
}

}  // namespace fusescope
