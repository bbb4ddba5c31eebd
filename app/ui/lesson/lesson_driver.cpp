#include "ui/lesson/lesson_driver.h"

#include <QDir>

#include "model/lab/learner_kernel.h"
#include "model/lesson/lesson_source.h"
#include "model/recorded_pipelines.h"
#include "model/recording_catalog.h"
#include "model/recording_json.h"
#include "worker/run_controller.h"

namespace fusescope {
namespace {

QString answerHint(const model::LessonStep& step) {
    if (!step.question) return {};
    switch (step.question->kind) {
        case model::QuestionKind::Number:
            return QObject::tr("answer in %1").arg(model::answerUnitLabel(step.question->unit));
        case model::QuestionKind::Winner:
            return QObject::tr("name one: %1").arg(step.show.variants.join(QStringLiteral(", ")));
        case model::QuestionKind::Order:
            return QObject::tr("order, fastest first: %1")
                .arg(step.show.variants.join(QStringLiteral(", ")));
        case model::QuestionKind::Limit:
            return QObject::tr("name one: %1")
                .arg(step.question->choices.join(QStringLiteral(", ")));
    }
    return {};
}

// The step with its kernel's runs in `recording` (those that launched the kernel's entry) beside
// its variants, for the reveal's numbers.
model::LessonStep withKernelRuns(model::LessonStep step, const model::Recording& recording) {
    const Result<model::LearnerKernel> kernel = model::loadLearnerKernel(step.show.kernelPath);
    if (!kernel) return step;
    for (const model::VariantResult& run : recording.runs)
        for (const KernelResult& launched : run.kernels)
            if (launched.name == kernel->entry.toStdString() &&
                model::toQString(run.pipeline) == step.show.pipeline &&
                !step.show.variants.contains(model::toQString(run.variant)))
                step.show.variants << model::toQString(run.variant);
    return step;
}

}  // namespace

std::unique_ptr<LessonDriver> LessonDriver::open(const QString& planPath,
                                                 const QString& progressFolder, QString* error) {
    const model::LessonParse parse =
        model::loadLessonPlan(planPath, model::shippedRecordingFolders());
    if (!parse.errors.isEmpty()) {
        *error = parse.errorText();
        return nullptr;
    }
    const int steps = static_cast<int>(parse.plan.steps.size());
    model::LessonSession session = model::startLessonSession(planPath, steps);
    QString progressPath;
    if (!progressFolder.isEmpty()) {
        QDir().mkpath(progressFolder);
        progressPath = model::lessonSessionPath(progressFolder, planPath);
        if (QFileInfo::exists(progressPath))
            if (Result<model::LessonSession> saved =
                    model::loadLessonSession(progressPath, planPath, steps))
                session = *saved;
    }
    return std::unique_ptr<LessonDriver>(new LessonDriver(parse.plan, session, progressPath));
}

LessonDriver::LessonDriver(model::LessonPlan plan, model::LessonSession session,
                           QString progressPath)
    : plan_(std::move(plan)),
      session_(std::move(session)),
      progressPath_(std::move(progressPath)) {}

void LessonDriver::setRunController(RunController* controller, bool gpuUsable) {
    if (controller_) disconnect(controller_, nullptr, this, nullptr);
    controller_ = controller;
    gpuUsable_ = gpuUsable;
    if (!controller_) return;
    connect(controller_, &RunController::runFinished, this, &LessonDriver::onRunFinished);
    connect(controller_, &RunController::runFailed, this, &LessonDriver::onRunFailed);
    connect(controller_, &RunController::cancelled, this,
            [this] { onRunFailed(tr("the run was cancelled")); });
}

void LessonDriver::save() {
    if (progressPath_.isEmpty()) return;
    if (Status saved = model::saveLessonSession(session_, progressPath_); !saved)
        status_ = QString::fromStdString(saved.message());
}

const model::LessonStep& LessonDriver::currentStep() const {
    return liveStep_ ? *liveStep_ : plan_.steps[session_.current];
}

bool LessonDriver::holdsRunResults() const {
    return liveStep_ && liveStep_->question && !session_.steps[session_.current].revealed;
}

void LessonDriver::loadRecordingOf(const model::LessonStep& step, const QString& path) {
    if (path.isEmpty()) {
        // A kernel step's words already say that running it needs a GPU.
        if (step.show.kernelPath.isEmpty())
            status_ = tr("step '%1' runs live only, in the window with a backend").arg(step.title);
        return;
    }
    Result<model::Recording> recording = model::openRecording(path);
    if (!recording) {
        status_ = QString::fromStdString(recording.status().message());
        return;
    }
    data_ = *recording;
    dataPath_ = path;
}

void LessonDriver::goTo(int step) {
    if (plan_.steps.isEmpty()) return;
    session_.current = std::clamp(step, 0, static_cast<int>(plan_.steps.size()) - 1);
    const model::LessonStep& shown = plan_.steps[session_.current];
    data_.reset();
    dataPath_.clear();
    status_.clear();
    const bool wasRunning = runningStep_ >= 0 && !waitingForLab_;
    runningStep_ = -1;
    waitingForLab_ = false;
    liveStep_.reset();
    const model::StepSource source =
        model::chooseStepSource(shown, gpuUsable_, controller_ != nullptr);
    sourceWords_ = source.words;
    const bool wantsLab = source.kernelRuns && controller_ && showKernel_;
    const bool labRuns = !source.kernelPath.isEmpty() && showKernel_ &&
                         showKernel_(source.kernelPath, wantsLab) && wantsLab;
    if (labRuns) {
        if (wasRunning) controller_->cancel();
        runningStep_ = session_.current;
        waitingForLab_ = true;
        status_ = tr("running live: %1").arg(sourceWords_);
    } else if (wantsLab) {
        // The Lab is still busy with an earlier run: the step's recording stands in.
        if (wasRunning) controller_->cancel();
        loadRecordingOf(shown, shown.show.recordingPath);
        status_ = tr("the Lab is busy with an earlier run%1")
                      .arg(data_ ? tr("; showing the step's recording instead") : QString());
    } else if (source.live && controller_) {
        Result<model::LessonStep> live = model::liveStep(shown);
        if (live) liveStep_ = *live;
        Result<RunRequest> request = live ? model::stepRunRequest(*live, source.backend, false)
                                          : Result<RunRequest>(live.status());
        if (!request) {
            status_ = QString::fromStdString(request.status().message());
        } else {
            RunCommand command;
            command.request = *request;
            command.request.target.backend =
                source.backend == BackendKind::Cuda ? BackendChoice::Cuda : BackendChoice::Cpu;
            runningStep_ = session_.current;
            status_ = tr("running live: %1").arg(sourceWords_);
            controller_->submit(command);
        }
    } else {
        // A newer run makes an older one stale by itself; a step without one stops it.
        if (wasRunning && controller_) controller_->cancel();
        loadRecordingOf(shown, source.recordingPath);
        // A recording made with the step's kernel elsewhere lists the kernel's run too.
        if (data_ && !shown.show.kernelPath.isEmpty())
            if (model::LessonStep withKernel = withKernelRuns(shown, *data_);
                withKernel.show.variants != shown.show.variants)
                liveStep_ = withKernel;
    }
    save();
    emit changed();
}

void LessonDriver::onRunFinished(const model::Recording& recording) {
    if (runningStep_ != session_.current) return;
    runningStep_ = -1;
    data_ = recording;
    status_.clear();
    emit changed();
}

void LessonDriver::onRunFailed(const QString& message) {
    if (runningStep_ != session_.current) return;
    runningStep_ = -1;
    liveStep_.reset();
    const model::LessonStep& step = plan_.steps[session_.current];
    // The step's recording stands in for a run that could not finish here.
    loadRecordingOf(step, step.show.recordingPath);
    status_ = tr("the live run stopped (%1)%2")
                  .arg(message, data_ ? tr("; showing its recording instead") : QString());
    if (data_) sourceWords_ = tr("opens its recording: the live run stopped");
    emit changed();
}

void LessonDriver::kernelRunFinished(const QString& recordingPath) {
    if (!waitingForLab_ || runningStep_ != session_.current) return;
    Result<model::Recording> recording = model::openRecording(recordingPath);
    if (!recording) {
        kernelRunFailed(QString::fromStdString(recording.status().message()));
        return;
    }
    runningStep_ = -1;
    waitingForLab_ = false;
    liveStep_ = withKernelRuns(plan_.steps[session_.current], *recording);
    data_ = *recording;
    dataPath_ = recordingPath;
    status_.clear();
    emit changed();
}

void LessonDriver::kernelRunFailed(const QString& message) {
    if (!waitingForLab_ || runningStep_ != session_.current) return;
    waitingForLab_ = false;
    onRunFailed(message);
}

void LessonDriver::forward() {
    const model::LessonStep& step = currentStep();
    const model::LessonStepProgress& progress = session_.steps[session_.current];
    if (step.question && !progress.revealed && !progress.answers.isEmpty() && data_) {
        reveal();
        return;
    }
    if (session_.current + 1 < plan_.steps.size()) goTo(session_.current + 1);
}

void LessonDriver::back() {
    if (session_.current > 0) goTo(session_.current - 1);
}

QString LessonDriver::addAnswer(const QString& typed, int hands) {
    const model::LessonStep& step = currentStep();
    if (session_.steps[session_.current].revealed) return tr("the answer is already revealed");
    Result<QString> answer = model::normalizeAnswer(step, typed);
    if (!answer) return QString::fromStdString(answer.status().message());
    session_.addAnswer(session_.current, *answer, std::max(1, hands));
    save();
    emit changed();
    return {};
}

QString LessonDriver::reveal() {
    const model::LessonStep& step = currentStep();
    model::LessonStepProgress& progress = session_.steps[session_.current];
    if (!data_) return tr("the step's numbers are not in yet");
    if (step.question && progress.answers.isEmpty()) return tr("the class has not answered yet");
    Result<model::MeasuredAnswer> measured = model::measureAnswer(step, *data_);
    if (!measured) return QString::fromStdString(measured.status().message());
    progress.measured = *measured;
    progress.revealed = true;
    save();
    // A tile's limit is shown where the tile sweep that measured it opens: the Tile explorer.
    const bool tileLimit = step.question && step.question->kind == model::QuestionKind::Limit;
    if (showReveal_) showReveal_(tileLimit ? step.show.tileSweepPath : dataPath_, step.show.view);
    emit changed();
    return {};
}

QString LessonDriver::exportCsv(const QString& path) const {
    const Status saved = model::exportLessonCsv(plan_, session_, path);
    return saved ? QString() : QString::fromStdString(saved.message());
}

LessonStepView LessonDriver::view() const {
    LessonStepView view;
    if (plan_.steps.isEmpty()) return view;
    const int index = session_.current;
    const model::LessonStep& step = currentStep();
    const model::LessonStepProgress& progress = session_.steps[index];
    view.lessonTitle = plan_.title;
    view.heading = tr("Step %1 of %2: %3").arg(index + 1).arg(plan_.steps.size()).arg(step.title);
    view.source = sourceWords_;
    view.text = step.text;
    view.notes = step.notes;
    if (index + 1 < plan_.steps.size())
        view.nextStep = tr("Next: %1").arg(plan_.steps[index + 1].title);
    view.status = status_;
    if (step.question) {
        view.question = step.question->text;
        view.answerHint = answerHint(step);
    }
    view.hands = session_.handsFor(index);
    // Without a question there is nothing to predict: the numbers show once they are in.
    view.revealed = progress.revealed || (!step.question && data_);
    view.canReveal = data_ && step.question && !progress.revealed && !progress.answers.isEmpty();
    const std::optional<model::MeasuredAnswer>& measured = progress.measured;
    for (const model::LessonAnswer& given : progress.answers) {
        LessonAnswerRow row{given.answer, given.hands, {}};
        if (progress.revealed && measured)
            row.off = model::judgeAnswer(step, given.answer, *measured).offText;
        view.answers << row;
    }
    if (!view.revealed || !data_) return view;
    view.numbers = model::revealNumbers(step, *data_);
    Result<model::MeasuredAnswer> fresh = model::measureAnswer(step, *data_);
    if (!fresh) {
        view.status = QString::fromStdString(fresh.status().message());
        return view;
    }
    if (step.question) {
        view.measured = fresh->text;
        view.measuredKind = fresh->kind;
    }
    view.reason = fresh->reason;
    view.measuredSource = fresh->source;
    if (fresh->momentNs) {
        for (const model::VariantResult& run : data_->runs)
            if (model::toQString(run.pipeline) == step.show.pipeline &&
                model::toQString(run.variant) == fresh->momentVariant)
                if (Result<model::StageTimeline> timeline = model::buildStageTimeline(run)) {
                    view.stage = *timeline;
                    view.stageMomentNs = *fresh->momentNs;
                }
    }
    return view;
}

}  // namespace fusescope
