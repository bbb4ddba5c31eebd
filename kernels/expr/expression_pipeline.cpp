#include "expr/expression_pipeline.h"

#include <algorithm>
#include <memory>
#include <set>

#include "expr/cpu_execution.h"
#include "expr/cuda_source.h"
#include "expr/ledger.h"
#include "expr/parser.h"
#include "expr/reference.h"
#include "expr/variant_plan.h"
#include "pipelines/described_pipeline.h"
#include "pipelines/elementwise_family.h"
#include "pipelines/runtime_registry.h"

namespace fusescope::expr {
namespace {

ElementExpression constantNode(double value) {
    return {"const", value, "", {}};
}
ElementExpression refNode(std::string name) {
    return {"ref", 0.0, std::move(name), {}};
}
ElementExpression node(std::string op, std::vector<ElementExpression> args) {
    return {std::move(op), 0.0, "", std::move(args)};
}

// An operation's value in the element program; no name of the chain starts with '%'.
std::string valueName(int operation) {
    return std::string("%").append(std::to_string(operation));
}

ElementExpression operandNode(const Program& program, const Operand& operand) {
    switch (operand.kind) {
        case Operand::Kind::Input:
            return refNode(program.inputs[operand.index]);
        case Operand::Kind::Parameter:
            return constantNode(program.parameters[operand.index].value);
        case Operand::Kind::Constant:
            return constantNode(operand.constant);
        case Operand::Kind::Value:
            return refNode(valueName(operand.index));
    }
    return {};
}

// The language's gelu is the tanh form; the element program's is erf's, so it is spelled out.
ElementExpression geluNode(ElementExpression x) {
    const ElementExpression cube = node("mul", {x, node("mul", {x, x})});
    const ElementExpression inner =
        node("mul", {constantNode(0.7978845608028654),
                     node("add", {x, node("mul", {constantNode(0.044715), cube})})});
    return node("mul", {node("mul", {constantNode(0.5), x}),
                        node("add", {constantNode(1.0), node("tanh", {inner})})});
}

ElementProgram referenceProgram(const Program& program) {
    ElementProgram reference;
    for (std::size_t k = 0; k < program.operations.size(); ++k) {
        const Operation& operation = program.operations[k];
        std::vector<ElementExpression> args;
        for (const Operand& operand : operation.operands)
            args.push_back(operandNode(program, operand));
        ElementExpression value =
            operation.kind == OpKind::Gelu
                ? geluNode(std::move(args.front()))
                : node(std::string(opInfo(operation.kind).identifier), std::move(args));
        reference.assignments.push_back({valueName(static_cast<int>(k)), std::move(value)});
    }
    for (const Output& output : program.outputs)
        reference.assignments.push_back({output.name, refNode(valueName(output.operation))});
    return reference;
}

std::string variantTitle(Strategy strategy, std::size_t kernels) {
    const std::string count = std::to_string(kernels).append(kernels == 1 ? " kernel" : " kernels");
    switch (strategy) {
        case Strategy::Unfused:
            return std::string("Unfused (").append(count).append(", one per operation)");
        case Strategy::Fused:
            return std::string("Fused (").append(count).append(", values in registers)");
        case Strategy::Split:
            return std::string("Your split (").append(count).append(")");
    }
    return {};
}

std::string variantDescription(Strategy strategy) {
    switch (strategy) {
        case Strategy::Unfused:
            return "As an eager framework runs it: one kernel per operation, every value another "
                   "operation reads a full array in memory.";
        case Strategy::Fused:
            return "One kernel: the inputs read once, every intermediate in registers, the "
                   "outputs written once.";
        case Strategy::Split:
            return "The kernels your '|' marks: values that cross from one kernel to a later "
                   "one go through memory.";
    }
    return {};
}

struct ExpressionState {
    Program program;
    std::vector<VariantPlan> plans;
};

void addCpuExecutions(RuntimePipeline& pipeline,
                      const std::shared_ptr<const ExpressionState>& state) {
    for (const VariantPlan& plan : state->plans) {
        for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
            const VariantPlan* planPointer = &plan;
            const int index = static_cast<int>(k);
            pipeline.cpuExecutions.emplace(
                describedExecutionKey(strategyName(plan.strategy), plan.kernels[k].name),
                [state, planPointer, index] {
                    return makeExpressionCpuExecution(state, state->program, *planPointer, index);
                });
        }
    }
}

CheckResult checkResult(const ExpressionCheck& check) {
    CheckResult result;
    // In units of the bound, so that a well-conditioned chain reads as a relative error.
    constexpr double kUnit = 1.0 / 16777216.0;
    result.measure = "max error relative to the chain's rounding bound";
    result.error = check.worstRoundings * kUnit;
    result.tolerance = kReferenceRoundings * kUnit;
    result.unwrittenElements = check.unwrittenElements;
    result.comparedElements = check.comparedElements;
    result.ok = check.ok;
    const bool wrongValue = check.worstRoundings > kReferenceRoundings;
    if (wrongValue || check.unwrittenElements == 0)
        result.wrongElement = {check.worstIndex, check.expectedThere, check.actualThere, false};
    else
        result.wrongElement = {check.firstUnwrittenIndex, 0.0, 0.0, true};
    return result;
}

// Every output of the chain against the reference, by the chain's rounding bound.
CheckResult checkEveryOutput(const ExpressionState& state, const Problem& problem,
                             const HostBuffers& inputs, const HostBuffers& outputs,
                             const CancelToken& cancel) {
    std::vector<const float*> pointers;
    for (const std::string& input : state.program.inputs)
        pointers.push_back(reinterpret_cast<const float*>(inputs.find(input)->data()));
    std::vector<std::pair<std::string, CheckResult>> checks;
    for (std::size_t k = 0; k < state.program.outputs.size(); ++k) {
        const std::string& name = state.program.outputs[k].name;
        const HostBytes* values = outputs.find(name);
        if (!values) continue;  // every variant allocates every output (describeExpression)
        checks.emplace_back(
            name, checkResult(checkOutput(state.program, static_cast<int>(k), pointers.data(),
                                          reinterpret_cast<const float*>(values->data()),
                                          problem.dimension(kElementCountDimension), cancel)));
    }
    return combinedCheck(checks);
}

}  // namespace

PipelineDescription describeExpression(const Program& program, std::string name) {
    PipelineDescription d;
    d.name = std::move(name);
    d.title = "Expression";
    d.formula = program.text;
    d.description = "A chain typed in the expression lab, run as unfused, fused and split kernels.";
    d.dimensions = {
        {std::string(kElementCountDimension), "elements per array", std::uint64_t{1} << 24}};
    const InputRange range = inputRange(program);
    for (const std::string& input : program.inputs)
        d.buffers.push_back({input, BufferRole::Input, range.low, range.high});
    d.check.output = program.outputs.back().name;

    std::set<std::string> declared(program.inputs.begin(), program.inputs.end());
    std::vector<std::string> intermediates;
    for (const Strategy strategy : strategiesOf(program)) {
        const VariantPlan plan = planVariant(program, strategy);
        DescribedVariant variant;
        variant.name = std::string(strategyName(strategy));
        variant.title = variantTitle(strategy, plan.kernels.size());
        variant.description = variantDescription(strategy);
        variant.fused = strategy == Strategy::Fused;
        for (const PlanArray& array : plan.arrays) {
            variant.buffers.push_back(array.name);
            if (!declared.insert(array.name).second) continue;
            d.buffers.push_back(
                {array.name,
                 array.role == ArrayRole::Output ? BufferRole::Output : BufferRole::Scratch, 0.0f,
                 0.0f});
            if (array.role == ArrayRole::Intermediate) intermediates.push_back(array.name);
        }
        const Ledger ledger = predictLedger(program, plan, 1);
        for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
            const GeneratedKernel cuda =
                generateDescribedCudaKernel(program, plan, static_cast<int>(k));
            const LedgerKernel& row = ledger.kernels[k];
            variant.kernels.push_back(
                {{plan.kernels[k].name, cuda.args, row.reads, row.writes, row.flopsPerElement},
                 cuda.source,
                 cuda.entry});
        }
        d.variants.push_back(std::move(variant));
    }
    for (const std::string& intermediate : intermediates)
        d.intermediate.append(d.intermediate.empty() ? "" : ", ").append(intermediate);
    d.check.reference = referenceProgram(program);
    return d;
}

Result<const PipelineSpec*> registerExpression(std::string_view text, std::string name) {
    const ParseResult parsed = parseProgram(text);
    if (!parsed) return parsed.status();
    auto state = std::make_shared<ExpressionState>();
    state->program = parsed.program();
    for (const Strategy strategy : strategiesOf(state->program))
        state->plans.push_back(planVariant(state->program, strategy));

    Result<RuntimePipeline> pipeline =
        makePipelineFromDescription(describeExpression(state->program, std::move(name)));
    if (!pipeline) return pipeline.status();
    std::shared_ptr<const ExpressionState> shared = state;
    addCpuExecutions(*pipeline, shared);
    // The check by the chain's rounding bound, for every output.
    pipeline->spec.check = [shared](const Problem& problem, const HostBuffers& inputs,
                                    const HostBuffers& outputs, const CancelToken& cancel) {
        return checkEveryOutput(*shared, problem, inputs, outputs, cancel);
    };
    return replacePipeline(std::move(*pipeline));
}

}  // namespace fusescope::expr
