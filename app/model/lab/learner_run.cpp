#include "model/lab/learner_run.h"

#include <algorithm>
#include <cmath>

#include "model/recording.h"
#include "pipelines/runtime_registry.h"
#include "pipelines/traffic_bounds.h"

namespace fusescope::model {
namespace {

Status invalid(const QString& message) {
    return Status(ErrorCode::InvalidArgument, message.toStdString());
}

const BufferSpec* referenceInput(const PipelineSpec& reference, const QString& name) {
    for (const VariantSpec& variant : reference.variants)
        if (const BufferSpec* buffer = findBuffer(variant, name.toStdString()))
            if (buffer->role == BufferRole::Input) return buffer;
    return nullptr;
}

DescribedVariant learnerVariant(const LearnerKernel& kernel) {
    DescribedVariant variant;
    variant.name = learnerVariantName().toStdString();
    variant.title = QStringLiteral("Your kernel (%1)").arg(kernel.entry).toStdString();
    variant.description =
        "The learner's kernel from the Lab, run by fusescope-cli run --kernel-file in a process "
        "of its own; its sweeps are the passes the learner declared.";
    DescribedKernel described;
    described.name = kernel.entry.toStdString();
    bool scratch = false;
    for (const LearnerBuffer& buffer : kernel.buffers) {
        variant.buffers.push_back(buffer.name.toStdString());
        described.args.push_back(buffer.name.toStdString());
        scratch = scratch || buffer.role == LearnerBufferRole::Scratch;
    }
    // Fused in the registry's sense: no intermediate array goes through memory.
    variant.fused = !scratch;
    for (const LearnerPass& pass : kernel.passes)
        (pass.write ? described.writes : described.reads).push_back(pass.buffer.toStdString());
    variant.kernels.push_back(described);
    return variant;
}

QString outputOf(const LearnerKernel& kernel) {
    for (const LearnerBuffer& buffer : kernel.buffers)
        if (buffer.role == LearnerBufferRole::Output) return buffer.name;
    return {};
}

// A built-in reference: the learner's buffers and variant, added to it.
Result<PipelineDescription> builtInExtension(const LearnerKernel& kernel,
                                             const PipelineSpec& reference) {
    PipelineDescription description;
    description.name = reference.name;
    description.extendsBuiltIn = true;
    for (const LearnerBuffer& buffer : kernel.buffers) {
        DescribedBuffer described{buffer.name.toStdString(), buffer.role};
        if (buffer.role == LearnerBufferRole::Input) {
            const BufferSpec* input = referenceInput(reference, buffer.name);
            if (!input)
                return invalid(QStringLiteral("the input \"%1\" is none of %2's inputs")
                                   .arg(buffer.name, QString::fromStdString(reference.name)));
            described.low = input->low;
            described.high = input->high;
        }
        description.buffers.push_back(described);
    }
    description.check.output = outputOf(kernel).toStdString();
    description.variants.push_back(learnerVariant(kernel));
    return description;
}

// A reference registered at run time: its own description, with the variant (replacing one of
// an earlier run) and the learner's scratch arrays added.
Result<PipelineDescription> runtimeFamilyWithLearner(const LearnerKernel& kernel,
                                                     const PipelineSpec& reference) {
    std::optional<PipelineDescription> description = runtimePipelineDescription(reference.name);
    if (!description)
        return invalid(QStringLiteral("%1 is kept without a description: a recording could not "
                                      "reopen your kernel beside it")
                           .arg(QString::fromStdString(reference.name)));
    const std::string variantName = learnerVariantName().toStdString();
    std::erase_if(description->variants,
                  [&](const DescribedVariant& v) { return v.name == variantName; });
    for (const LearnerBuffer& buffer : kernel.buffers) {
        const std::string name = buffer.name.toStdString();
        const auto known = std::find_if(description->buffers.begin(), description->buffers.end(),
                                        [&](const DescribedBuffer& b) { return b.name == name; });
        if (known == description->buffers.end() && buffer.role == LearnerBufferRole::Scratch)
            description->buffers.push_back({name, BufferRole::Scratch});
        else if (known == description->buffers.end() || known->role != buffer.role)
            return invalid(QStringLiteral("the %1 \"%2\" is not one of %3 (its inputs, its "
                                          "output %4, or scratch)")
                               .arg(roleName(buffer.role), buffer.name,
                                    QString::fromStdString(reference.name),
                                    QString::fromStdString(description->check.output)));
    }
    description->variants.push_back(learnerVariant(kernel));
    return *description;
}

}  // namespace

QString learnerVariantName() {
    return QStringLiteral("your kernel");
}

Result<PipelineDescription> learnerFamilyDescription(const LearnerKernel& kernel,
                                                     const PipelineSpec& reference) {
    return isBuiltInPipeline(reference.name) ? builtInExtension(kernel, reference)
                                             : runtimeFamilyWithLearner(kernel, reference);
}

int passesFromCounters(const KernelCounters& counters, std::uint64_t n) {
    const double sweep = static_cast<double>(n) * sizeof(float);
    return sweep > 0 ? static_cast<int>(std::lround(
                           (counters.dramBytesRead + counters.dramBytesWritten) / sweep))
                     : 0;
}

VariantResult learnerRunResult(const LearnerKernel& kernel, const PipelineSpec& reference,
                               const Problem& problem, const LearnerTiming& timing,
                               const CheckResult& check,
                               const std::optional<KernelCounters>& counters) {
    const std::uint64_t n = problem.dimension(kElementCountDimension);
    VariantResult result;
    result.pipeline = reference.name;
    result.variant = learnerVariantName().toStdString();
    result.problem = problem;
    result.backend = BackendKind::Cuda;
    result.passesCounted = true;
    for (const LearnerPass& pass : kernel.passes)
        (pass.write ? result.modelBytesWritten : result.modelBytesRead) += n * sizeof(float);
    result.passes = counters ? passesFromCounters(*counters, n) : kernel.passCount();
    // The kernel computes what its reference computes: the reference's FLOPs, where the registry
    // knows them, are the work it does.
    result.modelFlops = usefulFlops(reference, problem).value_or(0.0);
    result.timeMs = timing.medianMs;
    result.kernelsApartTimeMs = timing.medianMs;
    result.repeatTimesMs = timing.repeatTimesMs;
    result.peakBytesInFlight = timing.peakBytesInFlight;
    result.check = check;
    KernelResult launched;
    launched.name = kernel.entry.toStdString();
    launched.timeMs = timing.medianMs;
    launched.modelBytesRead = result.modelBytesRead;
    launched.modelBytesWritten = result.modelBytesWritten;
    launched.modelFlops = result.modelFlops;
    launched.resources.blockSize = timing.blockSize;
    launched.resources.gridSize = timing.gridSize;
    launched.counters = counters;
    result.kernels.push_back(launched);
    if (counters) result.countersSource = MeasurementSource::Counters;
    for (const LearnerAllocation& event : timing.allocations)
        result.allocations.push_back(
            {event.isAllocation ? AllocationEvent::Kind::Allocate : AllocationEvent::Kind::Free,
             event.buffer, event.bytes, event.timeNs, event.inFlightAfter});
    result.outputElements = n;
    return result;
}

}  // namespace fusescope::model
