#include "pipelines/described_pipeline.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "pipelines/element_program.h"
#include "pipelines/elementwise_family.h"
#include "pipelines/runtime_cuda_execution.h"

namespace fusescope {
namespace {

Status invalid(const PipelineDescription& description, const std::string& message) {
    return Status(ErrorCode::InvalidArgument,
                  "pipeline description '" + description.name + "': " + message);
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

const DescribedBuffer* findDescribedBuffer(const PipelineDescription& description,
                                           const std::string& name) {
    for (const DescribedBuffer& buffer : description.buffers)
        if (buffer.name == name) return &buffer;
    return nullptr;
}

Status checkBuffers(const PipelineDescription& description) {
    std::set<std::string> seen;
    for (const DescribedBuffer& buffer : description.buffers) {
        if (buffer.name.empty()) return invalid(description, "a buffer has no name");
        if (!seen.insert(buffer.name).second)
            return invalid(description, "buffer '" + buffer.name + "' is declared twice");
        if (buffer.role == BufferRole::Input &&
            !(std::isfinite(buffer.low) && std::isfinite(buffer.high) && buffer.low < buffer.high))
            return invalid(description,
                           "input '" + buffer.name + "' needs a value range with low below high");
    }
    const DescribedBuffer* output = findDescribedBuffer(description, description.check.output);
    if (!output || output->role != BufferRole::Output)
        return invalid(description, "the check's output '" + description.check.output +
                                        "' is not an output buffer");
    return Status::ok();
}

Status checkKernel(const PipelineDescription& description, const DescribedVariant& variant,
                   const DescribedKernel& kernel) {
    const std::string where = "kernel '" + kernel.name + "' of variant '" + variant.name + "'";
    if (kernel.name.empty())
        return invalid(description, "a kernel of variant '" + variant.name + "' has no name");
    for (const auto* names : {&kernel.args, &kernel.reads, &kernel.writes})
        for (const std::string& name : *names)
            if (!contains(variant.buffers, name))
                return invalid(description, where + " names '" + name +
                                                "', which its variant does not allocate");
    if (!(std::isfinite(kernel.flopsPerElement) && kernel.flopsPerElement >= 0))
        return invalid(description, where + " has no valid FLOPs per element");
    if (kernel.cudaSource.empty() != kernel.cudaEntry.empty())
        return invalid(description, where + " needs both CUDA source and entry, or neither");
    return Status::ok();
}

Status checkVariants(const PipelineDescription& description) {
    if (description.variants.empty()) return invalid(description, "it has no variants");
    std::set<std::string> seen;
    for (const DescribedVariant& variant : description.variants) {
        if (variant.name.empty()) return invalid(description, "a variant has no name");
        if (!seen.insert(variant.name).second)
            return invalid(description, "variant '" + variant.name + "' is declared twice");
        if (variant.kernels.empty())
            return invalid(description, "variant '" + variant.name + "' has no kernels");
        std::set<std::string> buffers;
        for (const std::string& name : variant.buffers) {
            if (!findDescribedBuffer(description, name))
                return invalid(description, "variant '" + variant.name +
                                                "' allocates an undeclared buffer '" + name + "'");
            if (!buffers.insert(name).second)
                return invalid(description,
                               "variant '" + variant.name + "' allocates '" + name + "' twice");
        }
        // The check reads every input and every output, whichever variant ran.
        for (const DescribedBuffer& buffer : description.buffers)
            if (buffer.role != BufferRole::Scratch && !contains(variant.buffers, buffer.name))
                return invalid(description,
                               "variant '" + variant.name + "' lacks buffer '" + buffer.name + "'");
        std::set<std::string> kernels;
        for (const DescribedKernel& kernel : variant.kernels) {
            if (Status s = checkKernel(description, variant, kernel); !s) return s;
            if (!kernels.insert(kernel.name).second)
                return invalid(description, "variant '" + variant.name + "' has two kernels '" +
                                                kernel.name + "'");
        }
    }
    return Status::ok();
}

Status checkShape(const PipelineDescription& description) {
    if (description.name.empty())
        return Status(ErrorCode::InvalidArgument, "a pipeline description has no name");
    if (description.extendsBuiltIn) {
        const PipelineSpec* base = findBuiltInPipeline(description.name);
        if (!base || !base->countsPasses)
            return invalid(description, "only a built-in elementwise pipeline can be extended");
        if (!description.dimensions.empty() || !description.check.reference.assignments.empty())
            return invalid(description, "an extension keeps the built-in's dimensions and check");
        return Status::ok();
    }
    if (description.family != kElementwiseFamily)
        return invalid(description, "family '" + description.family +
                                        "' cannot be described; only 'elementwise' can");
    if (description.dimensions.size() != 1 ||
        description.dimensions.front().name != kElementCountDimension ||
        description.dimensions.front().defaultValue == 0)
        return invalid(description, "an elementwise pipeline has one dimension, " +
                                        std::string(kElementCountDimension) +
                                        ", with a default above 0");
    return Status::ok();
}

std::vector<std::string> inputNames(const PipelineDescription& description) {
    std::vector<std::string> names;
    // In the order the first variant allocates them, as declareElementwise hands them over.
    for (const std::string& name : description.variants.front().buffers)
        if (findDescribedBuffer(description, name)->role == BufferRole::Input)
            names.push_back(name);
    return names;
}

BufferSpec bufferSpecOf(const DescribedBuffer& buffer) {
    return BufferSpec{buffer.name, buffer.role, {std::string(kElementCountDimension)},
                      1,           buffer.low,  buffer.high};
}

VariantSpec variantSpecOf(const PipelineDescription& description, const DescribedVariant& variant) {
    VariantSpec spec;
    spec.name = variant.name;
    spec.title = variant.title.empty() ? variant.name : variant.title;
    spec.description = variant.description;
    spec.fused = variant.fused;
    for (const std::string& name : variant.buffers)
        spec.buffers.push_back(bufferSpecOf(*findDescribedBuffer(description, name)));
    std::vector<ElementwiseKernel> kernels;
    for (const DescribedKernel& kernel : variant.kernels) kernels.push_back(kernel);
    spec.plan = [plan = elementwisePlan(std::move(kernels)),
                 name = variant.name](const Problem& problem) {
        std::vector<KernelSpec> specs = plan(problem);
        for (KernelSpec& kernel : specs)
            kernel.execution = describedExecutionKey(name, kernel.name);
        return specs;
    };
    return spec;
}

}  // namespace

std::string describedExecutionKey(std::string_view variant, std::string_view kernel) {
    return std::string(variant) + "/" + std::string(kernel);
}

CompileRequest describedKernelCompileRequest(const DescribedKernel& kernel, int vectorWidth,
                                             const std::string& architecture) {
    CompileRequest request;
    request.name = kernel.name + ".cu";
    request.source = kernel.cudaSource;
    request.options = {"-std=c++17", "-DFUSESCOPE_VECTOR_WIDTH=" + std::to_string(vectorWidth)};
    request.architecture = architecture;
    return request;
}

namespace {

void addVariants(const PipelineDescription& description, RuntimePipeline& pipeline) {
    for (const DescribedVariant& variant : description.variants) {
        pipeline.spec.variants.push_back(variantSpecOf(description, variant));
        for (const DescribedKernel& kernel : variant.kernels)
            if (!kernel.cudaSource.empty())
                pipeline.cudaExecutions.emplace(
                    describedExecutionKey(variant.name, kernel.name),
                    [kernel] { return makeRuntimeElementwiseCudaExecution(kernel); });
    }
}

// The built-in family with the description's variants after its own. The added variants'
// inputs are the built-in's, with its value ranges: its input maker fills them.
Result<RuntimePipeline> extensionFromDescription(const PipelineDescription& description) {
    const PipelineSpec& builtIn = *findBuiltInPipeline(description.name);
    for (const DescribedVariant& variant : description.variants)
        if (findVariant(builtIn, variant.name))
            return invalid(description, "variant '" + variant.name + "' is the built-in's own");
    for (const DescribedBuffer& buffer : description.buffers) {
        if (buffer.role != BufferRole::Input) continue;
        bool known = false;
        for (const VariantSpec& variant : builtIn.variants)
            if (const BufferSpec* spec = findBuffer(variant, buffer.name))
                known = known || (spec->role == BufferRole::Input && spec->low == buffer.low &&
                                  spec->high == buffer.high);
        if (!known)
            return invalid(description, "input '" + buffer.name +
                                            "' is none of the built-in's inputs (with its range)");
    }
    RuntimePipeline pipeline;
    pipeline.spec = builtIn;
    addVariants(description, pipeline);
    pipeline.description = description;
    return pipeline;
}

}  // namespace

Result<RuntimePipeline> makePipelineFromDescription(const PipelineDescription& description) {
    if (Status s = checkShape(description); !s) return s;
    if (Status s = checkBuffers(description); !s) return s;
    if (Status s = checkVariants(description); !s) return s;
    if (description.extendsBuiltIn) return extensionFromDescription(description);
    // Every output against the reference program's assignment of its name.
    std::vector<OutputReference> references;
    for (const DescribedBuffer& buffer : description.buffers) {
        if (buffer.role != BufferRole::Output) continue;
        Result<EvaluableProgram> reference = compileElementProgram(
            description.check.reference, inputNames(description), buffer.name);
        if (!reference) return invalid(description, reference.status().message());
        auto program = std::make_shared<const EvaluableProgram>(std::move(*reference));
        references.push_back({buffer.name, [program](const float* const* inputs, std::uint64_t i) {
                                  return program->evaluate(inputs, i);
                              }});
    }

    RuntimePipeline pipeline;
    PipelineSpec& spec = pipeline.spec;
    spec.name = description.name;
    spec.title = description.title.empty() ? description.name : description.title;
    spec.formula = description.formula;
    spec.description = description.description;
    spec.intermediate = description.intermediate;
    addVariants(description, pipeline);
    declareElementwise(spec, std::move(references));
    spec.dimensions.front().defaultValue = description.dimensions.front().defaultValue;
    spec.dimensions.front().title = description.dimensions.front().title.empty()
                                        ? spec.dimensions.front().title
                                        : description.dimensions.front().title;
    pipeline.description = description;
    return pipeline;
}

Result<const PipelineSpec*> registerDescribedPipeline(const PipelineDescription& description) {
    if (const std::optional<PipelineDescription> registered =
            runtimePipelineDescription(description.name);
        registered && *registered == description)
        if (const PipelineSpec* spec = findPipeline(description.name)) return spec;
    Result<RuntimePipeline> pipeline = makePipelineFromDescription(description);
    if (!pipeline) return pipeline.status();
    return description.extendsBuiltIn ? extendBuiltInPipeline(std::move(*pipeline))
                                      : replacePipeline(std::move(*pipeline));
}

}  // namespace fusescope
