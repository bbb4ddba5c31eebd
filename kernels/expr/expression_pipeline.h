#pragma once
// A chain typed by the learner as a pipeline family registered while the program runs: its
// description (pipelines/pipeline_description.h: buffers, the variants unfused, fused and, where
// the text has "|", split, each kernel's generated CUDA, the reference as an element program)
// with the expression text as its formula, so that recordings keep it; the CPU kernels of
// cpu_execution.h; and the check against reference.h's rounding bound.
#include <string>
#include <string_view>

#include "core/status.h"
#include "expr/expression.h"
#include "pipelines/pipeline_description.h"
#include "pipelines/registry.h"

namespace fusescope::expr {

// The family an expression is registered as; a new expression replaces the last one.
inline constexpr std::string_view kExpressionPipelineName = "expression";

// The description of a chain: every output an output buffer that every variant writes and the
// check compares; check.output is the last the chain assigns.
PipelineDescription describeExpression(const Program& program, std::string name);

// Parses `text` (the error at its character), describes it, adds the CPU kernels and the check,
// and registers it under `name`, replacing a run-time family of that name.
Result<const PipelineSpec*> registerExpression(
    std::string_view text, std::string name = std::string(kExpressionPipelineName));

}  // namespace fusescope::expr
