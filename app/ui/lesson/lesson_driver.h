#pragma once
// Leads a class through a lesson plan: the step it is on, where the step's numbers come from
// (a live run through the window's RunController, or the step's shipped recording), the answers
// given, the reveal, and the progress saved after every change.
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>

#include "model/lesson/lesson_session.h"
#include "model/recording.h"
#include "ui/lesson/lesson_step_view.h"

namespace fusescope {

class RunController;

class LessonDriver : public QObject {
    Q_OBJECT
  public:
    // Opens a plan and its saved progress from `progressFolder` (empty: nothing is saved, as in
    // a headless render). Null with `error` set (every problem at its line) when the plan is not
    // valid.
    static std::unique_ptr<LessonDriver> open(const QString& planPath,
                                              const QString& progressFolder, QString* error);

    // Live runs go through `controller` (the window's) on a GPU, or on the CPU backend for the
    // steps that count passes; without one, every step opens its recording.
    void setRunController(RunController* controller, bool gpuUsable);
    // Called at a reveal with the step's recording (empty for a live run, which the window
    // already has) and its view (LessonShow::view), so the window shows it there too.
    void setRevealShown(std::function<void(const QString&, const QString&)> show) {
        showReveal_ = std::move(show);
    }

    // Called when a step opens a learner's kernel: the window shows it in the Lab and, with
    // `run`, starts the Lab's own Run, returning whether it started; its outcome comes back
    // through kernelRunFinished or kernelRunFailed. Without it a kernel step runs its shipped
    // variants like any other.
    void setKernelShown(std::function<bool(const QString&, bool)> show) {
        showKernel_ = std::move(show);
    }
    // The Lab's run of the step's kernel: its recording (the shipped variants and the kernel's
    // run), or why there is none (then the step's recording stands in).
    void kernelRunFinished(const QString& recordingPath);
    void kernelRunFailed(const QString& message);

    const model::LessonPlan& plan() const { return plan_; }
    const model::LessonSession& session() const { return session_; }
    int current() const { return session_.current; }
    bool dataReady() const { return data_.has_value(); }
    // The current step runs live for a question not yet revealed: the window holds the run's
    // results back until the reveal.
    bool holdsRunResults() const;

    // Goes to a step and fetches its numbers (a run, or its recording).
    void goTo(int step);
    // Space and the right arrow: the reveal where the class has answered and it is pending,
    // else the next step.
    void forward();
    void back();
    // A typed answer or a show of hands; the reason in words when it is not one.
    QString addAnswer(const QString& typed, int hands);
    QString reveal();
    QString exportCsv(const QString& path) const;

    LessonStepView view() const;

  signals:
    void changed();

  private:
    LessonDriver(model::LessonPlan plan, model::LessonSession session, QString progressPath);
    void save();
    // The step as the class sees it: its live form while one runs or ran, else the plan's.
    const model::LessonStep& currentStep() const;
    void loadRecordingOf(const model::LessonStep& step, const QString& path);
    void onRunFinished(const model::Recording& recording);
    void onRunFailed(const QString& message);

    model::LessonPlan plan_;
    model::LessonSession session_;
    QString progressPath_;
    RunController* controller_ = nullptr;
    bool gpuUsable_ = false;
    std::function<void(const QString&, const QString&)> showReveal_;
    std::function<bool(const QString&, bool)> showKernel_;
    bool waitingForLab_ = false;  // the current step's kernel runs in the Lab
    std::optional<model::Recording> data_;
    QString dataPath_;  // the recording's path; empty for a live run
    QString sourceWords_;
    QString status_;
    int runningStep_ = -1;
    // The current step with its expression registered (lesson_source.h liveStep).
    std::optional<model::LessonStep> liveStep_;
};

}  // namespace fusescope
