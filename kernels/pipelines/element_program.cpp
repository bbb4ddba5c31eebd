#include "pipelines/element_program.h"

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <string_view>

namespace fusescope {
namespace {

using Kind = EvaluableProgram::Node::Kind;

constexpr std::string_view kConstantName = "const";
constexpr std::string_view kReferenceName = "ref";

Status invalid(std::string message) {
    return Status(ErrorCode::InvalidArgument, std::move(message));
}

}  // namespace

int elementOperatorArity(std::string_view op) {
    if (op == kConstantName || op == kReferenceName) return 0;
    const std::optional<ElementOp> found = elementOpNamed(op);
    return found ? elementOpInfo(*found).arity : -1;
}

double EvaluableProgram::evaluate(const float* const* inputs, std::uint64_t i) const {
    std::array<double, kMaxElementProgramNodes> values;
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
        const Node& node = nodes_[k];
        switch (node.kind) {
            case Kind::Constant:
                values[k] = node.value;
                break;
            case Kind::Input:
                values[k] = static_cast<double>(inputs[node.input][i]);
                break;
            case Kind::Assigned:
                values[k] = values[static_cast<std::size_t>(node.first)];
                break;
            case Kind::Operation:
                values[k] = applyElementOp(
                    node.op, values[static_cast<std::size_t>(node.first)],
                    node.second < 0 ? 0.0 : values[static_cast<std::size_t>(node.second)]);
                break;
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
        const int arity = elementOperatorArity(expression.op);
        if (arity < 0) return invalid(where + ": unknown operator '" + expression.op + "'");
        if (expression.args.size() != static_cast<std::size_t>(arity))
            return invalid(where + ": '" + expression.op + "' takes " + std::to_string(arity) +
                           " argument(s), not " + std::to_string(expression.args.size()));
        EvaluableProgram::Node node;
        if (expression.op == kConstantName) {
            node.kind = Kind::Constant;
            if (!std::isfinite(expression.value))
                return invalid(where + ": a constant is not a finite number");
            node.value = expression.value;
        } else if (expression.op == kReferenceName) {
            const auto assigned = names.find(expression.name);
            if (assigned != names.end()) {
                node.kind = Kind::Assigned;
                node.first = assigned->second;
            } else {
                node.kind = Kind::Input;
                for (std::size_t k = 0; k < inputs.size(); ++k)
                    if (inputs[k] == expression.name) node.input = static_cast<int>(k);
                if (node.input < 0)
                    return invalid(where + ": '" + expression.name +
                                   "' is neither an input nor an earlier assignment");
            }
        } else {
            node.kind = Kind::Operation;
            node.op = *elementOpNamed(expression.op);
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
    last.kind = Kind::Assigned;
    last.first = found->second;
    compiled.nodes_.push_back(last);
    return compiled;
}

}  // namespace fusescope
