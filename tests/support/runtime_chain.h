#pragma once
// A three-operation elementwise chain defined as data, for the tests of pipelines registered at
// run time: t = x * 2; u = t + y; out = u * u. Unfused it runs three kernels through t and u;
// fused, one. The CUDA kernels are source text for NVRTC; the CPU kernels are given at
// registration, as a family registered at run time gives them.
#include <string>
#include <vector>

#include "pipelines/described_pipeline.h"
#include "pipelines/elementwise_cpu_execution.h"
#include "pipelines/pipeline_description.h"
#include "pipelines/runtime_registry.h"
#include "runtime/runner.h"

namespace fusescope::test {

inline ElementExpression refTo(const std::string& name) {
    return {"ref", 0.0, name, {}};
}
inline ElementExpression constant(double value) {
    return {"const", value, "", {}};
}
inline ElementExpression binary(const std::string& op, ElementExpression a, ElementExpression b) {
    return {op, 0.0, "", {std::move(a), std::move(b)}};
}

// A grid-stride CUDA kernel `entry`(inputs..., output, n) computing output[i] = `body` over the
// inputs' values at i, at FUSESCOPE_VECTOR_WIDTH 1 or 4.
inline std::string chainKernelSource(const std::string& entry,
                                     const std::vector<std::string>& inputs,
                                     const std::string& output, const std::string& body) {
    std::string params, values, lanes, scalars;
    for (const std::string& input : inputs) {
        params += (params.empty() ? "" : ", ") + std::string("float ") + input;
        values += "const float* __restrict__ " + input + "_in, ";
        scalars += (scalars.empty() ? "" : ", ") + input + "_in[i]";
    }
    std::string source = "__device__ __forceinline__ float op(" + params + ") { return " + body +
                         "; }\nextern \"C\" __global__ void " + entry + "(" + values +
                         "float* __restrict__ " + output + "_out, unsigned long long n) {\n" +
                         "  const unsigned long long first = blockIdx.x * (unsigned long "
                         "long)blockDim.x + threadIdx.x;\n"
                         "  const unsigned long long stride = (unsigned long long)blockDim.x * "
                         "gridDim.x;\n  unsigned long long begin = 0;\n"
                         "#if FUSESCOPE_VECTOR_WIDTH == 4\n"
                         "  const unsigned long long groups = n / 4;\n"
                         "  for (unsigned long long g = first; g < groups; g += stride) {\n";
    for (const std::string& input : inputs)
        source += "    const float4 " + input + " = reinterpret_cast<const float4*>(" + input +
                  "_in)[g];\n";
    for (const char lane : std::string("xyzw")) {
        std::string args;
        for (const std::string& input : inputs)
            args += (args.empty() ? "" : ", ") + input + "." + lane;
        lanes += std::string("op(") + args + ")" + (lane == 'w' ? "" : ", ");
    }
    source += "    reinterpret_cast<float4*>(" + output + "_out)[g] = make_float4(" + lanes +
              ");\n  }\n  begin = groups * 4;\n#endif\n"
              "  for (unsigned long long i = begin + first; i < n; i += stride) " +
              output + "_out[i] = op(" + scalars + ");\n}\n";
    return source;
}

// A kernel that sweeps each input once and writes `output` once; its entry is "chain_<name>".
inline DescribedKernel chainKernel(const std::string& name, const std::vector<std::string>& inputs,
                                   const std::string& output, const std::string& body,
                                   double flopsPerElement) {
    const std::string entry = name.rfind("chain_", 0) == 0 ? name : "chain_" + name;
    std::vector<std::string> args = inputs;
    args.push_back(output);
    return {{name, args, inputs, {output}, flopsPerElement},
            chainKernelSource(entry, inputs, output, body),
            entry};
}

inline PipelineDescription chainDescription(const std::string& name = "runtime_chain") {
    PipelineDescription d;
    d.name = name;
    d.title = "Three-step chain";
    d.formula = "t = x*2; u = t + y; out = u*u";
    d.description = "A chain registered while the program runs.";
    d.intermediate = "u";
    d.dimensions = {{"N", "elements per array", 1u << 20}};
    d.buffers = {{"x", BufferRole::Input, -4.0f, 4.0f},
                 {"y", BufferRole::Input, -2.0f, 2.0f},
                 {"t", BufferRole::Scratch},
                 {"u", BufferRole::Scratch},
                 {"out", BufferRole::Output}};
    DescribedVariant unfused{"unfused", "Unfused (3 kernels)",       "One kernel per operation.",
                             false,     {"x", "y", "t", "u", "out"}, {}};
    unfused.kernels = {chainKernel("scale", {"x"}, "t", "x * 2.0f", 1.0),
                       chainKernel("add", {"t", "y"}, "u", "t + y", 1.0),
                       chainKernel("square", {"u"}, "out", "u * u", 1.0)};
    DescribedVariant fused{"fused", "Fused (1 kernel)", "All three in registers.",
                           true,    {"x", "y", "out"},  {}};
    fused.kernels = {
        chainKernel("chain_fused", {"x", "y"}, "out", "(x * 2.0f + y) * (x * 2.0f + y)", 3.0)};
    d.variants = {unfused, fused};
    d.check.output = "out";
    d.check.reference.assignments = {
        {"t", binary("mul", refTo("x"), constant(2.0))},
        {"u", binary("add", refTo("t"), refTo("y"))},
        {"out", binary("mul", refTo("u"), refTo("u"))},
    };
    return d;
}

// out[i] = op(in[i]...) over [begin, end): the buffers are the inputs, then the output.
template <int kInputs, typename Op>
ElementRangeKernel mapRange(Op op) {
    return [op](void* const* b, std::uint64_t begin, std::uint64_t end) {
        const auto at = [b](int k) { return static_cast<float*>(b[k]); };
        for (std::uint64_t i = begin; i < end; ++i) {
            if constexpr (kInputs == 1)
                at(1)[i] = op(at(0)[i]);
            else
                at(2)[i] = op(at(0)[i], at(1)[i]);
        }
    };
}

// A CPU kernel of a described variant, keyed as the variant runs it.
inline void addCpuKernel(RuntimePipeline& pipeline, const char* variant, const char* kernel,
                         ElementRangeKernel range) {
    pipeline.cpuExecutions.emplace(describedExecutionKey(variant, kernel),
                                   [name = std::string(kernel), range] {
                                       return makeElementwiseCpuExecution(
                                           name, [range](int, CpuInstructionSet) { return range; });
                                   });
}

// The chain's CPU kernels, keyed as the description's variants run them.
inline void addChainCpuExecutions(RuntimePipeline& pipeline) {
    const auto add = [&](const char* variant, const char* kernel, ElementRangeKernel range) {
        addCpuKernel(pipeline, variant, kernel, std::move(range));
    };
    add("unfused", "scale", mapRange<1>([](float x) { return x * 2.0f; }));
    add("unfused", "add", mapRange<2>([](float t, float y) { return t + y; }));
    add("unfused", "square", mapRange<1>([](float u) { return u * u; }));
    add("fused", "chain_fused", mapRange<2>([](float x, float y) {
            const float u = x * 2.0f + y;
            return u * u;
        }));
}

// A family whose kernels write two outputs, doubled = x * 2 and shifted = x + 3: the variant
// "right" computes both; "wrong" writes doubled right and shifted as x + 4, which only a check
// of every output finds.
inline PipelineDescription twoOutputDescription(const std::string& name = "two_outputs") {
    PipelineDescription d;
    d.name = name;
    d.title = "Two outputs";
    d.formula = "doubled = x * 2; shifted = x + 3";
    d.dimensions = {{"N", "elements per array", 1u << 20}};
    d.buffers = {{"x", BufferRole::Input, -4.0f, 4.0f},
                 {"doubled", BufferRole::Output},
                 {"shifted", BufferRole::Output}};
    const auto variant = [](const std::string& variantName, const std::string& shift) {
        DescribedVariant v{variantName,
                           variantName,
                           "Two kernels, one per output.",
                           false,
                           {"x", "doubled", "shifted"},
                           {}};
        v.kernels = {chainKernel("double", {"x"}, "doubled", "x * 2.0f", 1.0),
                     chainKernel("shift", {"x"}, "shifted", shift, 1.0)};
        return v;
    };
    d.variants = {variant("right", "x + 3.0f"), variant("wrong", "x + 4.0f")};
    d.check.output = "shifted";
    d.check.reference.assignments = {{"doubled", binary("mul", refTo("x"), constant(2.0))},
                                     {"shifted", binary("add", refTo("x"), constant(3.0))}};
    return d;
}

inline void addTwoOutputCpuExecutions(RuntimePipeline& pipeline) {
    for (const char* variant : {"right", "wrong"})
        addCpuKernel(pipeline, variant, "double", mapRange<1>([](float x) { return x * 2.0f; }));
    addCpuKernel(pipeline, "right", "shift", mapRange<1>([](float x) { return x + 3.0f; }));
    addCpuKernel(pipeline, "wrong", "shift", mapRange<1>([](float x) { return x + 4.0f; }));
}

// A run of the chain at N = n and the vector width, with few repeats (tests check, not time).
inline RunRequest chainRequest(std::uint64_t n, int width = 4, int repeats = 2, int warmup = 0,
                               const std::string& name = "runtime_chain") {
    RunRequest request;
    request.pipeline = name;
    request.problem.dimensions["N"] = n;
    request.problem.tuning["vector"] = width;
    request.settings.repeats = repeats;
    request.settings.warmup = warmup;
    return request;
}

// Unregisters the family when the test ends, whatever it asserted.
struct RegisteredForTest {
    std::string name;
    ~RegisteredForTest() { (void)unregisterPipeline(name); }
};

}  // namespace fusescope::test
