#include "ui/run/run_confirmation.h"

#include <QEventLoop>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QStatusBar>

#include "model/pipeline_catalog.h"
#include "model/run_limits.h"
#include "ui/run/run_panel.h"
#include "worker/cpu_run_estimate.h"
#include "worker/run_controller.h"

namespace fusescope {

std::optional<double> cpuEstimateFor(const RunCommand& command, const BackendSummary& summary) {
    if (!runsOnCpu(command, summary)) return std::nullopt;
    return estimateCpuRunSeconds(command);
}

QString describeCpuEstimate(const RunCommand& command, double seconds) {
    QString problem;
    if (const PipelineSpec* pipeline = findPipeline(command.request.pipeline))
        problem = QString::fromStdString(describeProblem(
            *pipeline, withDefaults(*pipeline, command.request.problem), command.request.variants));
    return QObject::tr("%1 on this CPU (%2)").arg(model::durationText(seconds), problem);
}

bool waitForCpuSpeeds(RunController& controller, RunPanel& panel, QStatusBar& statusBar,
                      const RunCommand& command, const BackendSummary& summary) {
    const int threads = command.request.cpuThreads;
    if (!runsOnCpu(command, summary) || cpuSpeedsSettled(threads)) return true;
    QEventLoop loop;
    bool cancelled = false;
    const QMetaObject::Connection measured = QObject::connect(
        &controller, &RunController::cpuSpeedsMeasured, &loop, [&loop, threads](int done) {
            if (done == threads) loop.quit();
        });
    const QMetaObject::Connection stopped =
        QObject::connect(panel.cancelButton(), &QPushButton::clicked, &loop, [&] {
            cancelled = true;
            loop.quit();
        });
    QObject::connect(&controller, &QObject::destroyed, &loop, &QEventLoop::quit);
    const QPointer<RunPanel> shown(&panel);
    const QPointer<QStatusBar> bar(&statusBar);
    const QString measuring = QObject::tr("Measuring this CPU's speed for the run's estimate…");
    panel.setRunning(true);
    panel.setProgress(0.0, measuring);
    statusBar.showMessage(measuring);
    controller.measureCpuSpeeds(threads);
    loop.exec();
    QObject::disconnect(measured);
    QObject::disconnect(stopped);
    if (shown) {
        shown->setRunning(false);
        shown->setProgress(0.0, QString());
    }
    if (bar && bar->currentMessage() == measuring) bar->clearMessage();
    return !cancelled && cpuSpeedsSettled(threads);
}

bool confirmLongRun(QWidget* parent, const RunCommand& command, const BackendSummary& summary) {
    const std::optional<double> seconds = cpuEstimateFor(command, summary);
    if (!seconds || !model::runNeedsConfirmation(*seconds)) return true;
    QMessageBox question(QMessageBox::Question, QObject::tr("A long run"),
                         QObject::tr("This run takes %1, estimated from the model's FLOPs and "
                                     "bytes at this CPU's measured speeds. Esc stops it.\n\n"
                                     "Run anyway?")
                             .arg(describeCpuEstimate(command, *seconds)),
                         QMessageBox::Yes | QMessageBox::No, parent);
    question.setObjectName(QStringLiteral("longRunQuestion"));
    question.setDefaultButton(QMessageBox::No);
    return question.exec() == QMessageBox::Yes;
}

}  // namespace fusescope
