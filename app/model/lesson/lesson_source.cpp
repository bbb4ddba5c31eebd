#include "model/lesson/lesson_source.h"

#include <QFileInfo>

#include "expr/expression_pipeline.h"
#include "model/recording_description.h"
#include "model/recording_json.h"
#include "model/tile_sweep_json.h"

namespace fusescope::model {
namespace {

// The device a recording was made on, for the words ("NVIDIA H200"); the file name otherwise.
QString recordingWords(const LessonShow& show) {
    Result<Recording> recording = loadRecording(show.recordingPath);
    const QString device = recording && !recording->device.name.empty()
                               ? QString::fromStdString(recording->device.name) + QLatin1Char(' ')
                               : QString();
    return QStringLiteral("opens the shipped %1recording %2")
        .arg(device, QFileInfo(show.recordingPath).fileName());
}

QString standInWords(const LessonShow& show, bool live) {
    if (!show.expression.isEmpty() && !live)
        return QStringLiteral("; it stands in for the expression %1, which only a live run shows")
            .arg(show.expression);
    return {};
}

QString tileSweepWords(const LessonShow& show) {
    if (show.tileSweepPath.isEmpty()) return {};
    Result<tiles::TileSweep> sweep = loadTileSweep(show.tileSweepPath);
    const QString device = sweep ? tileSweepDevice(*sweep) + QLatin1Char(' ') : QString();
    return QStringLiteral("; the tile's limit comes from the shipped %1tile sweep %2")
        .arg(device, QFileInfo(show.tileSweepPath).fileName());
}

}  // namespace

StepSource chooseStepSource(const LessonStep& step, bool gpuUsable, bool canRun) {
    StepSource source;
    const LessonShow& show = step.show;
    const PipelineSpec* pipeline =
        show.runnable ? findPipeline(show.pipeline.toStdString()) : nullptr;
    const bool expression = canRun && !show.expression.isEmpty();
    const bool runnable = canRun && pipeline && !show.variants.isEmpty();
    source.kernelPath = show.kernelPath;
    const QString kernel = QFileInfo(show.kernelPath).fileName();
    if (!show.kernelPath.isEmpty() && canRun && gpuUsable) {
        // The Lab's Run times the kernel beside the shipped variants; a check before class (no
        // Lab) runs the variants and compiles the kernel.
        source.kernelRuns = true;
        source.live = runnable;
        source.backend = BackendKind::Cuda;
        source.words = QStringLiteral(
                           "runs the kernel %1 live on the GPU in the Lab, beside the "
                           "shipped %2 variants")
                           .arg(kernel, show.pipeline);
        return source;
    }
    if (!show.kernelPath.isEmpty()) {
        // Only a GPU runs a learner's kernel: the step's recording, where it names one, holds
        // the numbers.
        source.recordingPath = show.recordingPath;
        source.words =
            (show.recordingPath.isEmpty()
                 ? QStringLiteral("shows the kernel %1 in the Lab")
                 : recordingWords(show) + QStringLiteral("; the Lab shows the kernel %1"))
                .arg(kernel) +
            (canRun ? QStringLiteral(": running it needs a GPU (none here)") : QString());
        return source;
    }
    if (expression) {
        // A typed chain runs on the CPU backend everywhere and on the GPU through NVRTC.
        source.live = true;
        source.backend = gpuUsable ? BackendKind::Cuda : BackendKind::Cpu;
        source.words = QStringLiteral("runs the expression %1 live on the %2")
                           .arg(show.expression, gpuUsable ? QStringLiteral("GPU")
                                                           : QStringLiteral("CPU backend (no GPU "
                                                                            "here)"));
    } else if (runnable && gpuUsable) {
        source.live = true;
        source.backend = BackendKind::Cuda;
        source.words = QStringLiteral("runs live on the GPU");
    } else if (runnable && pipeline->countsPasses) {
        source.live = true;
        source.backend = BackendKind::Cpu;
        source.words = QStringLiteral("runs live on the CPU backend (no GPU here)");
    } else {
        source.recordingPath = show.recordingPath;
        // A picture rendered without a window runs nothing, on a GPU machine too: it says only
        // which recording it opens.
        source.words = recordingWords(show) +
                       (gpuUsable || !canRun ? QString() : QStringLiteral(" (no GPU here)"));
    }
    source.words += standInWords(show, source.live) + tileSweepWords(show);
    return source;
}

Result<LessonStep> liveStep(const LessonStep& step) {
    if (step.show.expression.isEmpty()) return step;
    Result<const PipelineSpec*> registered =
        expr::registerExpression(step.show.expression.toStdString());
    if (!registered)
        return Status(ErrorCode::InvalidArgument,
                      "the step's expression does not parse, " + registered.status().message());
    LessonStep live = step;
    live.show.pipeline = QString::fromStdString((*registered)->name);
    live.show.runnable = true;
    live.show.variants.clear();
    for (const VariantSpec& variant : (*registered)->variants)
        live.show.variants << QString::fromStdString(variant.name);
    return live;
}

Result<RunRequest> stepRunRequest(const LessonStep& step, BackendKind backend, bool quick) {
    const PipelineSpec* pipeline = findPipeline(step.show.pipeline.toStdString());
    if (!pipeline)
        return Status(ErrorCode::InvalidArgument,
                      "the step names no pipeline to run: " + step.show.pipeline.toStdString());
    RunRequest request = defaultRequest(*pipeline, backend);
    Result<Problem> problem = problemFromText(*pipeline, step.show.problem);
    if (!problem) return problem.status();
    request.problem = *problem;
    for (const QString& variant : step.show.variants)
        request.variants.push_back(variant.toStdString());
    if (quick) {
        request.settings.repeats = 1;
        request.settings.warmup = 0;
        request.roofs = false;
    }
    return request;
}

}  // namespace fusescope::model
