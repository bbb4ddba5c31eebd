#include "cli/kernel_file_run.h"

#include <QFileInfo>
#include <algorithm>
#include <cstring>

#include "cli/console.h"
#include "cli/terminal_observer.h"
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

std::uint64_t passBytes(const model::LearnerKernel& kernel, bool writes, std::uint64_t n) {
    const auto count =
        std::count_if(kernel.passes.begin(), kernel.passes.end(),
                      [writes](const model::LearnerPass& p) { return p.write == writes; });
    return static_cast<std::uint64_t>(count) * n * sizeof(float);
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

model::RunRecord learnerRecord(const KernelFile& file, const LearnerRunSettings& settings,
                               const LearnerTiming& timing, const CheckResult& check) {
    const std::uint64_t n = settings.problem.dimension(kElementCountDimension);
    model::RunRecord run;
    run.pipeline = QString::fromStdString(file.reference->name);
    run.variant = learnerVariantName();
    run.problem = settings.problem;
    run.backend = QStringLiteral("cuda");
    run.passes = file.kernel.passCount();
    run.passesCounted = true;
    run.modelBytesRead = passBytes(file.kernel, false, n);
    run.modelBytesWritten = passBytes(file.kernel, true, n);
    run.timeMs = timing.medianMs;
    run.kernelsApartTimeMs = timing.medianMs;
    run.repeatTimesMs = QVector<double>(timing.repeatTimesMs.begin(), timing.repeatTimesMs.end());
    run.peakBytesInFlight = timing.peakBytesInFlight;
    run.checkMeasure = QString::fromStdString(check.measure);
    run.maxRelError = check.error;
    run.checkTolerance = check.tolerance;
    run.unwrittenElements = check.unwrittenElements;
    run.outputElements = n;
    run.comparedElements = check.comparedElements;
    run.checkOk = check.ok;
    model::KernelRecord kernel;
    kernel.name = file.kernel.entry;
    kernel.timeMs = timing.medianMs;
    kernel.modelBytesRead = run.modelBytesRead;
    kernel.modelBytesWritten = run.modelBytesWritten;
    kernel.blockSize = timing.blockSize;
    kernel.gridSize = timing.gridSize;
    run.kernels.push_back(kernel);
    for (const LearnerAllocation& event : timing.allocations)
        run.allocations.push_back({event.isAllocation, QString::fromStdString(event.buffer),
                                   event.bytes, event.timeNs, event.inFlightAfter});
    return run;
}

}  // namespace

QString learnerVariantName() {
    return QStringLiteral("your kernel");
}

Result<KernelFile> compileKernelFile(const QString& path) {
    Result<model::LearnerKernel> kernel = model::loadLearnerKernel(path);
    if (!kernel) return kernel.status();
    KernelFile file;
    file.kernel = *kernel;
    file.reference = findPipeline(kernel->reference.toStdString());
    if (!file.reference)
        return invalid(QStringLiteral("%1: the reference \"%2\" is no pipeline (see "
                                      "`fusescope-cli list`)")
                           .arg(path, kernel->reference));
    if (Status s = checkBuffers(*kernel, *file.reference); !s) return s;
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
    const HostBuffers inputs = makeHostInputs(reference, selectedVariants(reference, all),
                                              settings.problem, all.seed, cancel);
    if (cancel.cancelled()) return cancelledStatus();
    LearnerLaunch launch;
    launch.cubin = file.module.image;
    launch.entry = file.kernel.entry.toStdString();
    launch.n = settings.problem.dimension(kElementCountDimension);
    launch.warmup = settings.warmup;
    launch.repeats = settings.repeats;
    launch.timeLimitSeconds = settings.timeLimitSeconds;
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
    recording.runs.push_back(learnerRecord(file, settings, *timing, check));
    return Status::ok();
}

}  // namespace fusescope::cli
