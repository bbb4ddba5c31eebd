#include "ui/run/run_confirmation.h"

#include <QMessageBox>

#include "model/pipeline_catalog.h"
#include "model/run_limits.h"
#include "ui/run/run_panel.h"
#include "worker/cpu_run_estimate.h"

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
