#include "cli/kernel_file_run.h"

#include <QFileInfo>
#include <algorithm>
#include <cstring>
#include <optional>

#include "cli/console.h"
#include "cli/terminal_observer.h"
#include "expr/expression_pipeline.h"
#include "measure/cache_sweep.h"
#include "model/lab/learner_run.h"
#include "pipelines/described_pipeline.h"
#include "runtime/learner_launch.h"
#include "runtime/runner.h"

namespace fusescope::cli {
namespace {

Status invalid(const QString& message) {
    return Status(ErrorCode::InvalidArgument, message.toStdString());
}

// Every declared input must be one the reference fills; exactly one output is compared.
Status checkBuffers(const model::LearnerKernel& kernel, const PipelineSpec& reference) {
    const std::vector<const VariantSpec*> variants = selectedVariants(reference, RunRequest{});
    int outputs = 0;
    for (const model::LearnerBuffer& buffer : kernel.buffers) {
        if (buffer.role == model::LearnerBufferRole::Output) ++outputs;
        if (buffer.role != model::LearnerBufferRole::Input) continue;
        bool known = false;
        for (const VariantSpec* variant : variants)
            if (const BufferSpec* spec = findBuffer(*variant, buffer.name.toStdString()))
                known |= spec->role == BufferRole::Input;
        if (!known)
            return invalid(QStringLiteral("the input \"%1\" is none of %2's inputs")
                               .arg(buffer.name, QString::fromStdString(reference.name)));
    }
    if (outputs != 1)
        return invalid(
            QStringLiteral("the kernel declares %1 outputs; the check compares one").arg(outputs));
    if (!reference.countsPasses || !reference.firstWrongElement)
        return invalid(QStringLiteral("%1 is no elementwise pipeline: a learner's kernel is "
                                      "checked against an elementwise reference")
                           .arg(QString::fromStdString(reference.name)));
    return Status::ok();
}

// Counts the kernel's DRAM bytes through `launchOnce`. A provider that refuses, or fails, leaves
// the run without counters (said once); a launch that fails ends the run.
Status countLearnerKernel(const LearnerRunSettings& settings, const CancelToken& cancel,
                          const std::function<Status()>& launchOnce,
                          std::optional<KernelCounters>& counted) {
    const CounterCapability capability = settings.counters->capability();
    if (!capability.available) {
        printNote(QStringLiteral("%1: not counted (%2); its passes are the declared list")
                      .arg(model::learnerVariantName(), QString::fromStdString(capability.reason)));
        return Status::ok();
    }
    AllocationTracker tracker(*settings.backend);
    Result<CacheSweep> sweep = CacheSweep::create(*settings.backend, tracker);
    if (!sweep) return sweep.status();
    Status launched = Status::ok();
    Result<std::vector<KernelCounters>> counters = settings.counters->measureLaunches(
        1,
        [&](std::size_t) {
            launched = launchOnce();
            return launched;
        },
        [&] { return cancel.cancelled() ? cancelledStatus() : sweep->run(); });
    if (!launched) return launched;
    if (!counters || counters->empty()) {
        printNote(QStringLiteral("%1: not counted (%2); its passes are the declared list")
                      .arg(model::learnerVariantName(),
                           counters ? QStringLiteral("no counters came back")
                                    : QString::fromStdString(counters.status().message())));
        return Status::ok();
    }
    counted = counters->front();
    return Status::ok();
}

// The learner's one output as the reference pipeline's check reads it: under the name of the
// reference's first output.
HostBuffers referenceOutputs(const PipelineSpec& reference, const std::vector<float>& output) {
    const std::vector<BufferSpec>& buffers = reference.variants.front().buffers;
    const auto first = std::find_if(buffers.begin(), buffers.end(), [](const BufferSpec& buffer) {
        return buffer.role == BufferRole::Output;
    });
    HostBuffers outputs;
    outputs.names.push_back(first == buffers.end() ? std::string() : first->name);
    outputs.values.emplace_back(output.size() * sizeof(float));
    std::memcpy(outputs.values.back().data(), output.data(), output.size() * sizeof(float));
    return outputs;
}

// The reference a kernel file names, or its expression registered for this run.
Result<const PipelineSpec*> referenceOf(const model::LearnerKernel& kernel, const QString& path) {
    if (!kernel.expression.isEmpty()) {
        Result<const PipelineSpec*> registered =
            expr::registerExpression(kernel.expression.toStdString());
        if (!registered)
            return invalid(QStringLiteral("%1: the expression does not parse, %2")
                               .arg(path, QString::fromStdString(registered.status().message())));
        return registered;
    }
    if (const PipelineSpec* reference = findPipeline(kernel.reference.toStdString()))
        return reference;
    return invalid(
        QStringLiteral("%1: the reference \"%2\" is no pipeline (see `fusescope-cli list`)")
            .arg(path, kernel.reference));
}

}  // namespace

Result<KernelFile> compileKernelFile(const QString& path) {
    Result<model::LearnerKernel> kernel = model::loadLearnerKernel(path);
    if (!kernel) return kernel.status();
    KernelFile file;
    file.kernel = *kernel;
    Result<const PipelineSpec*> reference = referenceOf(*kernel, path);
    if (!reference) return reference.status();
    file.reference = *reference;
    if (Status s = checkBuffers(*kernel, *file.reference); !s) return s;
    // The family the recording will carry must make a registry entry, checked before anything
    // compiles or runs.
    Result<PipelineDescription> family = model::learnerFamilyDescription(*kernel, **reference);
    if (!family) return family.status();
    if (Result<RuntimePipeline> made = makePipelineFromDescription(*family); !made)
        return made.status();
    file.family = std::move(*family);
    // The whole file goes to the compiler (the header is a comment of as many lines), so its
    // messages carry the file's own line numbers.
    std::string log;
    Result<CompiledModule> module =
        compileLearnerKernel(QFileInfo(path).fileName().toStdString(),
                             model::writeLearnerKernel(*kernel).toStdString(), log);
    if (!log.empty()) printOut(QString::fromStdString(log), "");
    if (!module) {
        if (module.status().code() == ErrorCode::DeviceError && !log.empty())
            return invalid(QStringLiteral("%1 did not compile (the messages above)").arg(path));
        return module.status();
    }
    file.module = std::move(*module);
    return file;
}

Status appendLearnerRun(const KernelFile& file, const LearnerRunSettings& settings,
                        model::Recording& recording, bool& kernelLeftRunning) {
    const PipelineSpec& reference = *file.reference;
    const CancelToken cancel([] { return InterruptGuard::interrupted(); });
    RunRequest all;
    all.problem = settings.problem;
    all.settings = settings.settings;
    const HostBuffers inputs = makeHostInputs(reference, selectedVariants(reference, all),
                                              settings.problem, all.settings.seed, cancel);
    if (cancel.cancelled()) return cancelledStatus();
    LearnerLaunch launch;
    launch.cubin = file.module.image;
    launch.entry = file.kernel.entry.toStdString();
    launch.n = settings.problem.dimension(kElementCountDimension);
    launch.settings = settings.settings;
    launch.timeLimitSeconds = settings.timeLimitSeconds;
    std::optional<KernelCounters> counters;
    if (settings.counters)
        launch.afterTiming = [&](const std::function<Status()>& launchOnce) {
            return countLearnerKernel(settings, cancel, launchOnce, counters);
        };
    std::size_t outputIndex = 0;
    for (const model::LearnerBuffer& buffer : file.kernel.buffers) {
        LearnerBufferData data;
        data.name = buffer.name.toStdString();
        data.input = buffer.role == model::LearnerBufferRole::Input;
        data.copiedBack = buffer.role == model::LearnerBufferRole::Output;
        if (data.copiedBack) outputIndex = launch.buffers.size();
        if (data.input) {
            const auto* values = reinterpret_cast<const float*>(inputs.find(data.name)->data());
            data.values.assign(values, values + launch.n);
        }
        launch.buffers.push_back(std::move(data));
    }
    Result<LearnerTiming> timing = runLearnerKernel(launch, cancel);
    kernelLeftRunning = launch.leftRunning;
    if (!timing) return timing.status();
    const std::vector<float>& output = launch.buffers[outputIndex].values;
    const CheckResult check =
        reference.check(settings.problem, inputs, referenceOutputs(reference, output), cancel);
    if (!check.ok) {
        if (const std::optional<WrongElement> wrong =
                reference.firstWrongElement(settings.problem, inputs, output.data()))
            printOut(QStringLiteral("your kernel: first wrong element at index %1: expected %2, "
                                    "got %3")
                         .arg(wrong->index)
                         .arg(wrong->expected, 0, 'g', 9)
                         .arg(wrong->unwritten ? QStringLiteral("nothing (never written)")
                                               : QString::number(wrong->got, 'g', 9)));
    }
    recording.runs.push_back(model::learnerRunResult(file.kernel, reference, settings.problem,
                                                     *timing, check, counters));
    recording.pipelineDescriptions.removeIf(
        [&](const PipelineDescription& d) { return d.name == file.family.name; });
    recording.pipelineDescriptions.push_back(file.family);
    return Status::ok();
}

}  // namespace fusescope::cli
