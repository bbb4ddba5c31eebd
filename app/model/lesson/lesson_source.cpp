#include "model/lesson/lesson_source.h"

#include <QFileInfo>

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

QString standInWords(const LessonShow& show) {
    if (!show.expression.isEmpty())
        return QStringLiteral(
                   "; the expression lab is not in this build, so it shows %1 "
                   "instead of %2")
            .arg(show.pipeline, show.expression);
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
    const bool runnable = canRun && pipeline && !show.variants.isEmpty();
    if (runnable && gpuUsable) {
        source.live = true;
        source.backend = BackendKind::Cuda;
        source.words = QStringLiteral("runs live on the GPU");
    } else if (runnable && pipeline->countsPasses) {
        source.live = true;
        source.backend = BackendKind::Cpu;
        source.words = QStringLiteral("runs live on the CPU backend (no GPU here)");
    } else {
        source.recordingPath = show.recordingPath;
        source.words =
            recordingWords(show) + (gpuUsable ? QString() : QStringLiteral(" (no GPU here)"));
    }
    source.words += standInWords(show);
    return source;
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
        request.repeats = 1;
        request.warmup = 0;
        request.roofs = false;
    }
    return request;
}

}  // namespace fusescope::model
