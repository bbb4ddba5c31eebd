#pragma once
// What the elementwise pipelines (affine, swiglu) share: N float32 elements, the vector width,
// whole-array sweeps counted as passes, uniform random inputs and an element-by-element check
// against a reference in double.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pipelines/registry.h"

namespace fusescope {

// One kernel as the pass model sees it: `reads` and `writes` are whole sweeps over N-element
// arrays (a name may repeat). Its execution key is its name.
struct ElementwiseKernel {
    std::string name;
    std::vector<std::string> args;
    std::vector<std::string> reads;
    std::vector<std::string> writes;
    double flopsPerElement = 0.0;

    bool operator==(const ElementwiseKernel&) const = default;
};

// The value an output element must have, computed in double from the inputs at index i.
// `inputs` holds the pipeline's input buffers in the order the first variant declares them.
// Called from several threads at once.
using ElementReference = std::function<double(const float* const* inputs, std::uint64_t i)>;

// The value every element of one output buffer must have.
struct OutputReference {
    std::string output;
    ElementReference reference;
};

// Declares N, float32, the vector width, passes, inputs, check and roofline on `pipeline`; the
// check compares every output against its reference. The first form is for a pipeline whose
// variants write one output.
void declareElementwise(PipelineSpec& pipeline, ElementReference reference);
void declareElementwise(PipelineSpec& pipeline, std::vector<OutputReference> references);
KernelPlan elementwisePlan(std::vector<ElementwiseKernel> kernels);

// Uniform values in [low, high], a pure function of (seed, stream, i): any N, any thread split.
// Stops early once `cancel` is set.
void fillUniform(float* data, std::uint64_t n, std::uint32_t seed, std::uint32_t stream, float low,
                 float high, const CancelToken& cancel = {});

// Up to this many elements the reference (in double) is computed for every element; above it,
// for this many elements spread over the output. Every element is still checked for having been
// written. Computing exp in double for every element of a large output took as long as the run.
constexpr std::uint64_t kReferenceSampleElements = std::uint64_t{1} << 20;
constexpr double kFloat32Tolerance = 1e-5;

// Compares `output` against the reference (CheckResult::comparedElements says how many elements
// were compared) and checks every element for the poison; a failure keeps the worst element (or,
// with none wrong, the first never written) in CheckResult::wrongElement.
CheckResult checkElementwiseOutput(const ElementReference& reference, const float* const* inputs,
                                   const float* output, std::uint64_t n);

// The elements of an output still holding the poison (no kernel wrote them): how many, and the
// first (n where none). Nothing once `cancel` is set on the way.
struct UnwrittenElements {
    std::uint64_t count = 0;
    std::uint64_t first = 0;
};
std::optional<UnwrittenElements> findUnwritten(const float* values, std::uint64_t n,
                                               const CancelToken& cancel = {});

// One check of several outputs, each checked alone: the largest error, the unwritten and
// compared elements of all, ok where every output is (and there is one), and the first failing
// output named with its wrong element.
CheckResult combinedCheck(const std::vector<std::pair<std::string, CheckResult>>& outputs);

}  // namespace fusescope
