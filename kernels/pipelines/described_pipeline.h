#pragma once
// A registry entry made from a PipelineDescription (pipeline_description.h): the elementwise
// family's declarations (elementwise_family.h) with the description's buffers, variants and
// kernels, its check evaluating the description's reference program in double, and on the GPU
// each kernel's CUDA source compiled by NVRTC (runtime_cuda_execution.h). CPU code is not part of
// a description: the caller adds RuntimePipeline::cpuExecutions before registering.
#include <string>
#include <string_view>

#include "core/status.h"
#include "pipelines/pipeline_description.h"
#include "pipelines/runtime_registry.h"
#include "platform/runtime_compiler.h"

namespace fusescope {

// Refuses a description that is not elementwise over N, or whose names do not agree (a kernel
// naming a buffer its variant lacks, a variant without every output or without every
// input, a reference program that does not evaluate), with the reason.
Result<RuntimePipeline> makePipelineFromDescription(const PipelineDescription& description);

// The execution key a described variant's kernel runs under, before registration makes it unique
// (RuntimePipeline::cpuExecutions is keyed by it): "<variant>/<kernel>".
std::string describedExecutionKey(std::string_view variant, std::string_view kernel);

// What NVRTC compiles for a described kernel at a vector width, for an architecture ("sm_90").
CompileRequest describedKernelCompileRequest(const DescribedKernel& kernel, int vectorWidth,
                                             const std::string& architecture);

// Makes and registers the family (an extension of a built-in one through extendBuiltInPipeline),
// replacing a run-time family of the same name whose description differs; one with an equal
// description is kept. What a recording's loader does.
Result<const PipelineSpec*> registerDescribedPipeline(const PipelineDescription& description);

}  // namespace fusescope
