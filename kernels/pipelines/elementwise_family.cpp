#include "pipelines/elementwise_family.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

#include "platform/parallel.h"

namespace fusescope {
namespace {

std::uint32_t hash32(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

bool isPoison(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits == 0xFFFFFFFFu;
}

std::vector<std::string> inputNames(const PipelineSpec& pipeline) {
    std::vector<std::string> names;
    for (const auto& buffer : pipeline.variants.front().buffers)
        if (buffer.role == BufferRole::Input) names.push_back(buffer.name);
    return names;
}

std::vector<const float*> inputPointers(const std::vector<std::string>& names,
                                        const HostBuffers& inputs) {
    std::vector<const float*> pointers;
    for (const auto& name : names)
        pointers.push_back(reinterpret_cast<const float*>(inputs.find(name)->data()));
    return pointers;
}

double relativeError(double actual, double expected) {
    // Relative to the value, with a floor so that results near zero compare absolutely.
    return std::abs(actual - expected) / std::max(std::abs(expected), 1e-6);
}

}  // namespace

void fillUniform(float* data, std::uint64_t n, std::uint32_t seed, std::uint32_t stream, float low,
                 float high, const CancelToken& cancel) {
    const std::uint32_t key = hash32(seed * 2654435761u ^ hash32(stream + 1));
    parallelFor(n, hardwareThreads(), cancel, 1, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i) {
            const auto lo = static_cast<std::uint32_t>(i);
            const auto hi = static_cast<std::uint32_t>(i >> 32);
            const std::uint32_t h = hash32(hash32(lo ^ key) + hi * 0x9E3779B9u);
            data[i] = low + (high - low) * static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
        }
    });
}

CheckResult checkElementwiseOutput(const ElementReference& reference, const float* const* inputs,
                                   const float* output, std::uint64_t n) {
    // Above kReferenceSampleElements, one element of each equal stretch of the output, at an
    // offset that varies from stretch to stretch (so vector lanes and tails are all visited),
    // plus the last elements, where scalar tails live.
    constexpr std::uint64_t kTailElements = 64;
    const bool sampled = n > kReferenceSampleElements;
    const std::uint64_t stretches = sampled ? kReferenceSampleElements - kTailElements : n;
    const std::uint64_t stretch = sampled ? n / stretches : 1;
    CheckResult result;
    result.tolerance = kFloat32Tolerance;
    std::mutex merge;
    // The worst element compared, kept where its error is larger (a NaN counts as infinite).
    const auto compare = [&](std::uint64_t i, double& worst, WrongElement& where) {
        if (isPoison(output[i])) return;
        const double expected = reference(inputs, i);
        const double actual = output[i];
        const double relative = relativeError(actual, expected);
        const double error = std::isnan(relative) ? INFINITY : relative;
        if (error > worst) {
            worst = error;
            where = WrongElement{i, expected, actual, false};
        }
    };
    const auto keepWorst = [&](double worst, const WrongElement& where) {
        std::lock_guard lock(merge);
        if (worst <= result.error) return;
        result.error = worst;
        result.wrongElement = where;
    };
    const UnwrittenElements unwritten = *findUnwritten(output, n);
    result.unwrittenElements = unwritten.count;
    parallelFor(stretches, hardwareThreads(), [&](std::uint64_t begin, std::uint64_t end) {
        double worst = 0.0;
        WrongElement where;
        for (std::uint64_t s = begin; s < end; ++s)
            compare(sampled ? s * stretch + hash32(static_cast<std::uint32_t>(s)) % stretch : s,
                    worst, where);
        keepWorst(worst, where);
    });
    if (sampled) {
        double worst = 0.0;
        WrongElement where;
        for (std::uint64_t i = n - kTailElements; i < n; ++i) compare(i, worst, where);
        keepWorst(worst, where);
    }
    result.comparedElements = sampled ? stretches + kTailElements : n;
    result.ok = result.unwrittenElements == 0 && result.error <= result.tolerance;
    // A wrong value says more than an unwritten one; with none, the first element never written.
    if (result.error <= result.tolerance && unwritten.count > 0)
        result.wrongElement = WrongElement{unwritten.first, reference(inputs, unwritten.first),
                                           static_cast<double>(output[unwritten.first]), true};
    return result;
}

std::optional<UnwrittenElements> findUnwritten(const float* values, std::uint64_t n,
                                               const CancelToken& cancel) {
    UnwrittenElements found{0, n};
    std::mutex merge;
    const bool scanned =
        parallelFor(n, hardwareThreads(), cancel, 1, [&](std::uint64_t begin, std::uint64_t end) {
            UnwrittenElements part{0, n};
            for (std::uint64_t i = begin; i < end; ++i)
                if (isPoison(values[i])) {
                    part.first = std::min(part.first, i);
                    ++part.count;
                }
            std::lock_guard lock(merge);
            found.count += part.count;
            found.first = std::min(found.first, part.first);
        });
    if (!scanned) return std::nullopt;
    return found;
}

CheckResult combinedCheck(const std::vector<std::pair<std::string, CheckResult>>& outputs) {
    CheckResult combined;
    combined.ok = !outputs.empty();  // nothing compared is no pass
    for (const auto& [name, check] : outputs) {
        combined.measure = check.measure;
        combined.tolerance = check.tolerance;
        combined.error = std::max(combined.error, check.error);
        combined.unwrittenElements += check.unwrittenElements;
        combined.comparedElements += check.comparedElements;
        if (!check.ok && combined.ok) {
            combined.wrongOutput = name;
            combined.wrongElement = check.wrongElement;
        }
        combined.ok = combined.ok && check.ok;
    }
    return combined;
}

KernelPlan elementwisePlan(std::vector<ElementwiseKernel> kernels) {
    return [kernels = std::move(kernels)](const Problem& problem) {
        const std::uint64_t n = problem.dimension(kElementCountDimension);
        const std::uint64_t arrayBytes = n * dtypeBytes(problem.dtype);
        std::vector<KernelSpec> specs;
        for (const ElementwiseKernel& kernel : kernels) {
            KernelSpec spec;
            spec.name = kernel.name;
            spec.execution = kernel.name;
            spec.args = kernel.args;
            const auto charge = [&](const std::string& buffer) -> BufferTraffic& {
                for (auto& entry : spec.traffic.buffers)
                    if (entry.buffer == buffer) return entry;
                return spec.traffic.buffers.emplace_back(BufferTraffic{buffer, 0, 0});
            };
            for (const auto& name : kernel.reads) charge(name).bytesRead += arrayBytes;
            for (const auto& name : kernel.writes) charge(name).bytesWritten += arrayBytes;
            spec.traffic.flops = kernel.flopsPerElement * static_cast<double>(n);
            spec.passReads = kernel.reads;
            spec.passWrites = kernel.writes;
            specs.push_back(std::move(spec));
        }
        return specs;
    };
}

void declareElementwise(PipelineSpec& pipeline, ElementReference reference) {
    std::string output;
    for (const BufferSpec& buffer : pipeline.variants.front().buffers)
        if (buffer.role == BufferRole::Output) output = buffer.name;
    declareElementwise(pipeline, {{output, std::move(reference)}});
}

void declareElementwise(PipelineSpec& pipeline, std::vector<OutputReference> references) {
    pipeline.dimensions = {{std::string(kElementCountDimension), "elements per array",
                            std::uint64_t{1} << 24, 1, std::numeric_limits<std::uint64_t>::max()}};
    pipeline.dtypes = {DType::Float32};
    TuningSpec vector;
    vector.name = std::string(kVectorWidthTuning);
    vector.title = "vector";
    vector.help = "1: scalar loads; 4: 16-byte loads with a scalar tail for any N";
    vector.allowed.assign(kSupportedVectorWidths.begin(), kSupportedVectorWidths.end());
    vector.defaultValue = kDefaultVectorWidth;
    pipeline.tunings = {vector};
    pipeline.sizeDimension = std::string(kElementCountDimension);
    pipeline.countsPasses = true;
    pipeline.rooflineBytes = [](const Problem& problem) {
        // One array, as the variants' arrays (BufferSpec::bytes saturates the same way).
        const BufferSpec array{"array", BufferRole::Input, {std::string(kElementCountDimension)}};
        return array.bytes(problem);
    };
    pipeline.makeInputs = [](const Problem& problem, const std::vector<const BufferSpec*>& inputs,
                             std::uint32_t seed, const CancelToken& cancel) {
        const std::uint64_t n = problem.dimension(kElementCountDimension);
        HostBuffers buffers;
        for (const BufferSpec* input : inputs) {
            buffers.names.push_back(input->name);
            buffers.values.emplace_back(n * sizeof(float));
            fillUniform(reinterpret_cast<float*>(buffers.values.back().data()), n, seed,
                        static_cast<std::uint32_t>(buffers.names.size()), input->low, input->high,
                        cancel);
        }
        return buffers;
    };
    const std::vector<std::string> names = inputNames(pipeline);
    // Large outputs are checked on a sample (kReferenceSampleElements): too brief to cancel.
    pipeline.check = [references, names](const Problem& problem, const HostBuffers& inputs,
                                         const HostBuffers& outputs, const CancelToken&) {
        const std::vector<const float*> pointers = inputPointers(names, inputs);
        std::vector<std::pair<std::string, CheckResult>> checks;
        for (const OutputReference& output : references) {
            const HostBytes* values = outputs.find(output.output);
            if (!values) continue;  // a variant without this output (none of the families)
            checks.emplace_back(output.output, checkElementwiseOutput(
                                                   output.reference, pointers.data(),
                                                   reinterpret_cast<const float*>(values->data()),
                                                   problem.dimension(kElementCountDimension)));
        }
        return combinedCheck(checks);
    };
    // A learner's kernel writes one output: the first.
    pipeline.firstWrongElement = [reference = references.front().reference, names](
                                     const Problem& problem, const HostBuffers& inputs,
                                     const void* output) -> std::optional<WrongElement> {
        const std::vector<const float*> pointers = inputPointers(names, inputs);
        const auto* values = static_cast<const float*>(output);
        for (std::uint64_t i = 0; i < problem.dimension(kElementCountDimension); ++i) {
            const double expected = reference(pointers.data(), i);
            if (isPoison(values[i]) || !(relativeError(values[i], expected) <= kFloat32Tolerance))
                return WrongElement{i, expected, values[i], isPoison(values[i])};
        }
        return std::nullopt;
    };
}

}  // namespace fusescope
