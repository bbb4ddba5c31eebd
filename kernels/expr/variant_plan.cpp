#include "expr/variant_plan.h"

#include <algorithm>
#include <set>
#include <utility>

namespace fusescope::expr {
namespace {

// The kernel each operation belongs to, kernels numbered from 0 without gaps.
std::vector<int> kernelAssignment(const Program& program, Strategy strategy) {
    std::vector<int> kernel(program.operations.size(), 0);
    for (std::size_t k = 0; k < kernel.size(); ++k) {
        switch (strategy) {
            case Strategy::Unfused:
                kernel[k] = static_cast<int>(k);
                break;
            case Strategy::Fused:
                kernel[k] = 0;
                break;
            case Strategy::Split:
                kernel[k] = program.operations[k].group;
                break;
        }
    }
    // A group of statements with no operation ("t = x |") launches nothing.
    std::vector<int> used(kernel);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    for (int& k : kernel)
        k = static_cast<int>(std::lower_bound(used.begin(), used.end(), k) - used.begin());
    return kernel;
}

// A name for an intermediate no name of the chain uses: its own name, else tmp1, tmp2, ...
std::string intermediateName(const Program& program, int operation, std::set<std::string>& taken) {
    std::string name = program.nameOf(operation);
    for (int suffix = 1; name.empty() || taken.contains(name); ++suffix)
        name = "tmp" + std::to_string(suffix);
    taken.insert(name);
    return name;
}

void addOnce(std::vector<int>& list, int value) {
    if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

}  // namespace

std::string_view strategyName(Strategy strategy) {
    // Each strategy is the variant of that name.
    constexpr std::pair<Strategy, std::string_view> kNames[] = {
        {Strategy::Unfused, "unfused"}, {Strategy::Fused, "fused"}, {Strategy::Split, "split"}};
    for (const auto& [candidate, name] : kNames)
        if (candidate == strategy) return name;
    return "fused";
}

std::vector<Strategy> strategiesOf(const Program& program) {
    if (program.groups > 1) return {Strategy::Unfused, Strategy::Fused, Strategy::Split};
    return {Strategy::Unfused, Strategy::Fused};
}

int VariantPlan::arrayOfInput(int input) const {
    for (std::size_t a = 0; a < arrays.size(); ++a)
        if (arrays[a].role == ArrayRole::Input && arrays[a].input == input)
            return static_cast<int>(a);
    return -1;
}

int VariantPlan::homeOf(int operation) const {
    for (std::size_t a = 0; a < arrays.size(); ++a)
        if (arrays[a].role != ArrayRole::Input && arrays[a].operation == operation)
            return static_cast<int>(a);
    return -1;
}

int VariantPlan::kernelOf(int operation) const {
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        const auto& ops = kernels[k].operations;
        if (std::find(ops.begin(), ops.end(), operation) != ops.end()) return static_cast<int>(k);
    }
    return -1;
}

VariantPlan planVariant(const Program& program, Strategy strategy) {
    VariantPlan plan;
    plan.strategy = strategy;
    const std::vector<int> kernelOf = kernelAssignment(program, strategy);
    const int operations = static_cast<int>(program.operations.size());

    // A value crosses kernels when an operation of another kernel reads it.
    std::vector<bool> crosses(program.operations.size(), false);
    for (int k = 0; k < operations; ++k)
        for (const Operand& operand : program.operations[k].operands)
            if (operand.kind == Operand::Kind::Value && kernelOf[operand.index] != kernelOf[k])
                crosses[operand.index] = true;

    std::set<std::string> taken(program.inputs.begin(), program.inputs.end());
    for (const Parameter& parameter : program.parameters) taken.insert(parameter.name);
    for (const Output& output : program.outputs) taken.insert(output.name);
    for (std::size_t i = 0; i < program.inputs.size(); ++i)
        plan.arrays.push_back({program.inputs[i], ArrayRole::Input, static_cast<int>(i), -1});
    for (int k = 0; k < operations; ++k)
        if (crosses[k] && program.outputOf(k) < 0)
            plan.arrays.push_back(
                {intermediateName(program, k, taken), ArrayRole::Intermediate, -1, k});
    for (const Output& output : program.outputs)
        plan.arrays.push_back({output.name, ArrayRole::Output, -1, output.operation});

    const int kernels =
        operations == 0 ? 0 : *std::max_element(kernelOf.begin(), kernelOf.end()) + 1;
    plan.kernels.resize(kernels);
    for (int k = 0; k < operations; ++k) {
        PlanKernel& kernel = plan.kernels[kernelOf[k]];
        kernel.operations.push_back(k);
        for (const Operand& operand : program.operations[k].operands) {
            if (operand.kind == Operand::Kind::Input)
                addOnce(kernel.reads, plan.arrayOfInput(operand.index));
            else if (operand.kind == Operand::Kind::Value && kernelOf[operand.index] != kernelOf[k])
                addOnce(kernel.reads, plan.homeOf(operand.index));
        }
        for (std::size_t a = 0; a < plan.arrays.size(); ++a)
            if (plan.arrays[a].role != ArrayRole::Input && plan.arrays[a].operation == k)
                kernel.writes.push_back({static_cast<int>(a), k});
    }
    for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
        PlanKernel& kernel = plan.kernels[k];
        switch (strategy) {
            case Strategy::Unfused:
                kernel.name = std::string("k")
                                  .append(std::to_string(k + 1))
                                  .append("_")
                                  .append(opInfo(program.operations[k].kind).identifier);
                break;
            case Strategy::Fused:
                kernel.name = "fused";
                break;
            case Strategy::Split:
                kernel.name = std::string("part").append(std::to_string(k + 1));
                break;
        }
    }
    return plan;
}

}  // namespace fusescope::expr
