#include "ui/jobs/cpu_speeds_gate.h"

#include <QPushButton>
#include <QStatusBar>

#include "ui/run/run_panel.h"
#include "worker/cpu_run_estimate.h"
#include "worker/run_controller.h"

namespace fusescope {

CpuSpeedsGate::CpuSpeedsGate(RunController& controller, RunPanel& panel, QStatusBar& statusBar,
                             QObject* parent)
    : QObject(parent),
      controller_(controller),
      panel_(panel),
      statusBar_(statusBar),
      measuring_(tr("Measuring this CPU's speed for the run's estimate…")) {
    connect(&controller_, &RunController::jobFinished, this,
            [this](JobId id, JobKind, const QVariant&) { onEnded(id, true); });
    connect(&controller_, &RunController::jobFailed, this,
            [this](JobId id, JobKind, const QString&) { onEnded(id, false); });
    connect(&controller_, &RunController::jobCancelled, this,
            [this](JobId id, JobKind, const QVariant&) { onEnded(id, false); });
    connect(panel_.cancelButton(), &QPushButton::clicked, this, [this] {
        if (isMeasuring()) cancel();
    });
}

void CpuSpeedsGate::whenKnown(const RunCommand& command, const BackendSummary& summary,
                              std::function<void()> then) {
    const int threads = command.request.cpuThreads;
    if (!runsOnCpu(command, summary) || cpuSpeedsSettled(threads)) {
        if (isMeasuring()) cancel();
        then();
        return;
    }
    then_ = std::move(then);
    threads_ = threads;
    panel_.setRunning(true);
    panel_.setProgress(0.0, measuring_);
    statusBar_.showMessage(measuring_);
    // A calibration still running for another thread count is superseded by this one.
    job_ = controller_.start(CalibrationCommand{threads});
}

void CpuSpeedsGate::cancel() {
    if (!isMeasuring()) return;
    controller_.cancel(job_);
    job_ = 0;
    then_ = nullptr;
    endWait();
}

void CpuSpeedsGate::onEnded(JobId id, bool measured) {
    if (id != job_) return;
    job_ = 0;
    std::function<void()> then = std::move(then_);
    then_ = nullptr;
    endWait();
    if (measured && cpuSpeedsSettled(threads_) && then) then();
}

void CpuSpeedsGate::endWait() {
    panel_.setRunning(false);
    panel_.setProgress(0.0, QString());
    if (statusBar_.currentMessage() == measuring_) statusBar_.clearMessage();
    emit settled();
}

}  // namespace fusescope
