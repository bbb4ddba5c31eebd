#include "model/lesson/lesson_source.h"

#include <QFileInfo>

#include "expr/expression_pipeline.h"
#include "model/recording_json.h"

namespace fusescope::model {
namespace {

// The device a recording was made on, for the words ("NVIDIA H200"); the file name otherwise.
QString recordingWords(const LessonShow& show) {
    Result<Recording> recording = loadRecording(show.recordingPath);
    const QString device = recording && !recording->device.name.isEmpty()
                               ? recording->device.name + QLatin1Char(' ')
                               : QString();
    return QStringLiteral("opens the shipped %1recording %2")
        .arg(device, QFileInfo(show.recordingPath).fileName());
}

QString standInWords(const LessonShow& show, bool live) {
    if (!show.expression.isEmpty() && !live)
        return QStringLiteral("; it stands in for the expression %1, which only a live run shows")
            .arg(show.expression);
    if (!show.kernelFile.isEmpty())
        return QStringLiteral(
                   "; the kernel editor is not in this build, so it shows the shipped "
                   "%1 variants instead of %2")
            .arg(show.pipeline, show.kernelFile);
    return {};
}

}  // namespace

StepSource chooseStepSource(const LessonStep& step, bool gpuUsable, bool canRun) {
    StepSource source;
    const LessonShow& show = step.show;
    const PipelineSpec* pipeline =
        show.runnable ? findPipeline(show.pipeline.toStdString()) : nullptr;
    const bool expression = canRun && !show.expression.isEmpty();
    const bool runnable = canRun && pipeline && !show.variants.isEmpty();
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
    source.words += standInWords(show, source.live);
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
