#pragma once
// A pipeline family described as data, so that it can be made while the program runs (from an
// expression, a learner's kernel, a recording) and saved with the recordings of its runs.
// makePipelineFromDescription (described_pipeline.h) turns it into a registry entry; app/model
// reads and writes it as JSON. Only elementwise families are described today: every buffer holds
// N float32 elements and every kernel sweeps whole arrays.
#include <cstdint>
#include <string>
#include <vector>

#include "pipelines/elementwise_family.h"
#include "pipelines/registry.h"

namespace fusescope {

// One node of an element program's expression tree, evaluated per element in double.
//   "const": `value`;  "ref": the input, or earlier assignment, called `name`;
//   unary ("neg", "exp", "log", "sqrt", "rsqrt", "sigmoid", "silu", "tanh", "gelu", "abs"):
//   one argument;  binary ("add", "sub", "mul", "div", "min", "max"): two arguments.
// gelu is the exact form, x/2 * (1 + erf(x/sqrt(2))).
struct ElementExpression {
    std::string op;
    double value = 0.0;
    std::string name;
    std::vector<ElementExpression> args;

    bool operator==(const ElementExpression&) const = default;
};

struct ElementAssignment {
    std::string name;
    ElementExpression value;

    bool operator==(const ElementAssignment&) const = default;
};

// Assignments in order, each over the inputs and the assignments before it
// (t = x * 2; u = t + y; out = u * u).
struct ElementProgram {
    std::vector<ElementAssignment> assignments;

    bool operator==(const ElementProgram&) const = default;
};

struct DescribedDimension {
    std::string name;  // "N"
    std::string title;
    std::uint64_t defaultValue = 0;

    bool operator==(const DescribedDimension&) const = default;
};

struct DescribedBuffer {
    std::string name;
    BufferRole role = BufferRole::Input;
    float low = 0.0f;  // inputs: uniform random values in [low, high]
    float high = 0.0f;

    bool operator==(const DescribedBuffer&) const = default;
};

// One kernel. On the GPU, `cudaSource` is compiled by NVRTC once per supported vector width with
// FUSESCOPE_VECTOR_WIDTH defined to 1 or 4, and `cudaEntry` (an extern "C" __global__ function)
// takes the buffers named by `args` as float pointers, in that order, then N as an unsigned long
// long. It must loop grid-stride over all N elements: at width 4 the launch gives one thread per
// float4 group, at width 1 only the resident blocks (as the built-in elementwise kernels run).
// Its name, args, reads, writes and FLOPs are those of any elementwise kernel.
struct DescribedKernel : ElementwiseKernel {
    std::string cudaSource;
    std::string cudaEntry;

    bool operator==(const DescribedKernel&) const = default;
};

struct DescribedVariant {
    std::string name;
    std::string title;
    std::string description;
    bool fused = false;
    std::vector<std::string> buffers;  // names of the pipeline's buffers this variant allocates
    std::vector<DescribedKernel> kernels;

    bool operator==(const DescribedVariant&) const = default;
};

// The correctness check: every output buffer must hold, element by element, the value of the
// program's assignment of the same name, computed in double from the inputs. Every variant
// allocates every output; `output` is the one it writes last.
struct DescribedCheck {
    ElementProgram reference;
    std::string output;

    bool operator==(const DescribedCheck&) const = default;
};

struct PipelineDescription {
    std::string name;
    std::string title;
    std::string formula;
    std::string description;
    // The buffer whose round trip through memory fusion removes (the stage marks it).
    std::string intermediate;
    std::string family = "elementwise";
    // Set where the description adds variants to the built-in family named `name` (a learner's
    // kernel beside the shipped variants): `buffers` and `variants` are the added ones, the
    // built-in's dimensions, inputs and check stay, and `dimensions` and `check.reference` are
    // empty (check.output names the added variants' output).
    bool extendsBuiltIn = false;
    std::vector<DescribedDimension> dimensions;  // elementwise: N alone
    std::vector<DescribedBuffer> buffers;
    std::vector<DescribedVariant> variants;
    DescribedCheck check;

    bool operator==(const PipelineDescription&) const = default;
};

inline constexpr std::string_view kElementwiseFamily = "elementwise";

}  // namespace fusescope
