#pragma once
// CUDA C++ for the kernels of a variant plan, self-contained for NVRTC (no #include). Each kernel
// has the shape of the built-in elementwise kernels (pipelines/cuda_elementwise.cuh): a 64-bit
// grid-stride loop, at vector width 4 over 16-byte float4 groups, two groups a thread per step
// loaded before any is stored, then a scalar tail; at width 1 over single floats. Its parameters
// are the arrays it reads, the arrays it writes, then N.
#include <string>
#include <vector>

#include "expr/expression.h"
#include "expr/variant_plan.h"

namespace fusescope::expr {

struct GeneratedKernel {
    std::string name;   // the plan's kernel name ("fused", "k2_mul")
    std::string entry;  // the extern "C" symbol: "fused_v4"
    std::string source;
    std::vector<std::string> args;  // array names in parameter order; N follows them
};

// `entry` empty: "<kernel>_v<width>".
GeneratedKernel generateCudaKernel(const Program& program, const VariantPlan& plan, int kernelIndex,
                                   int vectorWidth, std::string entry = {});

// One source for both widths, as a described kernel is compiled (pipeline_description.h): the
// width-4 code where FUSESCOPE_VECTOR_WIDTH is 4, the width-1 code otherwise, both under the
// entry name `<kernel>`.
GeneratedKernel generateDescribedCudaKernel(const Program& program, const VariantPlan& plan,
                                            int kernelIndex);

// Every kernel of the plan at a vector width, one after another, as the learner reads them.
std::string cudaSourceText(const Program& program, const VariantPlan& plan, int vectorWidth);

// A float32 constant as CUDA reads it back exactly: "2.0f", "1e-05f", "(-1.5f)".
std::string cudaFloatLiteral(float value);

}  // namespace fusescope::expr
