// Runs started from the window: the worker followed, its results shown, its end reported.
#include "ui/window/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "model/format.h"
#include "model/fusion_verdict.h"
#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "model/tile_sweep_json.h"
#include "ui/charts/chart_interaction.h"
#include "ui/charts/charts.h"
#include "ui/charts/plot_font_follow.h"
#include "ui/charts/plot_text_fit.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_explorer_wiring.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/explorer/tile_roofline.h"
#include "ui/export/chart_export.h"
#include "ui/export/chart_export_actions.h"
#include "ui/export/table_export.h"
#include "ui/jobs/cpu_speeds_gate.h"
#include "ui/results/results_model.h"
#include "ui/run/measurement_panel.h"
#include "ui/run/run_choices.h"
#include "ui/run/run_confirmation.h"
#include "ui/run/run_panel.h"
#include "ui/sweep/sweep_chart.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/widgets/elided_label.h"
#include "ui/window/plugged_views.h"
#include "ui/window/self_test_dialog.h"
#include "worker/run_controller.h"

namespace fusescope {

bool MainWindow::isRunning() const {
    // A run that waits for this CPU's speeds has begun: its first stage is their measuring.
    return runWaitsForCpuSpeeds_ || controller_->isRunning();
}

void MainWindow::startRun() {
    if (const QString job = jobElsewhere(); !job.isEmpty())
        statusBar()->showMessage(tr("A %1 is running: cancel it first.").arg(job), 5000);
    if (isRunning()) return;
    const QString problem = runPanel_->validationMessage();
    if (!problem.isEmpty()) {
        statusBar()->showMessage(problem, 5000);
        return;
    }
    startAfterAsking(runPanel_->command());
}

void MainWindow::startAfterAsking(const RunCommand& command) {
    if (isRunning()) return;
    runWaitsForCpuSpeeds_ = true;
    cpuSpeeds_->whenKnown(command, summary_, [this, command] {
        runWaitsForCpuSpeeds_ = false;
        if (confirmLongRun(this, command, summary_)) startCommand(command);
    });
    if (runWaitsForCpuSpeeds_) showViews();
}

void MainWindow::startCommand(const RunCommand& command) {
    if (isRunning()) return;
    recording_ = {};
    showRecordingInViews();
    runPanel_->setRunning(true);
    runPanel_->setProgress(0.0, tr("Starting…"));
    runStartedMs_ = QDateTime::currentMSecsSinceEpoch();
    setWindowTitle(tr("FuseScope"));
    openFile_.clear();
    showViews();
    controller_->submit(command);
    emit runStateChanged(true);
}

void MainWindow::cancelRun() {
    if (cpuSpeeds_->isMeasuring()) cpuSpeeds_->cancel();
    if (!isRunning()) return;
    if (controller_->isSweeping()) {
        sweepTab_->cancelSweep();
        return;
    }
    if (controller_->isTileSweeping() || controller_->isTileRunning()) {
        tileExplorer_->cancelSweep();
        runPanel_->setProgress(0.0, tr("Cancelling the %1…").arg(jobElsewhere()));
        return;
    }
    controller_->cancel();
    runPanel_->setProgress(0.0, tr("Cancelling…"));
}

QString MainWindow::jobElsewhere() const {
    if (controller_->isSweeping()) return tr("size sweep");
    if (controller_->isTileSweeping()) return tr("tile sweep");
    if (controller_->isTileRunning()) return tr("tile run");
    return {};
}

void MainWindow::followWorker() {
    const QString job = jobElsewhere();
    if (job == shownJobElsewhere_) return;
    const bool ended = !shownJobElsewhere_.isEmpty();
    shownJobElsewhere_ = job;
    runPanel_->setBusyElsewhere(job);
    if (!job.isEmpty()) {
        jobElsewhereEndedText_.clear();
        runPanel_->setProgress(0.0, tr("A %1 has the worker: Run waits for it.").arg(job));
    } else if (ended) {
        runPanel_->setProgress(
            0.0, jobElsewhereEndedText_.isEmpty() ? tr("Ready") : jobElsewhereEndedText_);
    }
}

void MainWindow::onBackendsProbed(const BackendSummary& summary) {
    summary_ = summary;
    backendsKnown_ = true;
    runPanel_->setBackendSummary(summary);
    sweepTab_->setBackendSummary(summary);
    measurementPanel_->setBackendSummary(summary);
    showGpuOnStartPage();
    // The start page says why there is no GPU; here only what it means, with the reason on
    // demand (the status bar's tooltip, and Help > About).
    statusBar()->showMessage(summary.cudaUsable
                                 ? tr("GPU: %1").arg(summary.cudaDeviceName)
                                 : tr("No usable GPU: the CPU backend runs the pipelines"));
    statusBar()->setToolTip(
        summary.cudaUsable ? QString() : tr("CUDA is not usable: %1").arg(summary.cudaReason));
    emit backendsProbed();
}

void MainWindow::onVariantFinished(const model::VariantResult& run) {
    if (runResultsHeld()) return;
    recording_.runs.push_back(run);
    variantModel_->appendRun(run);
    kernelModel_->appendRun(run);
    for (ChartView* chart : charts_) chart->setRecording(recording_);
    measurementPanel_->setRecording(recording_);
    emit runVariantFinished(run);
}

void MainWindow::showHeldRunResults() {
    if (!heldRecording_) return;
    setRecording(*heldRecording_);
    heldRecording_.reset();
}

void MainWindow::onRunFinished(const model::Recording& recording) {
    heldRecording_.reset();
    if (runResultsHeld()) {
        heldRecording_ = recording;
        endRun(true, tr("Finished: the results wait for the lesson's reveal"));
        return;
    }
    setRecording(recording);
    QStringList notes;
    if (!recording.counterStatus.empty() && recording.device.backend == BackendKind::Cuda)
        notes << tr("No counters: %1").arg(QString::fromStdString(recording.counterStatus));
    for (const model::VariantNotRun& variant : recording.variantsNotRun)
        notes << tr("Not run: %1").arg(QString::fromStdString(variant.reason));
    if (!notes.isEmpty())
        runPanel_->setStatusText(runStartedNote_ + QLatin1Char('\n') +
                                 notes.join(QLatin1Char('\n')));
    const double seconds = (QDateTime::currentMSecsSinceEpoch() - runStartedMs_) / 1000.0;
    QString finished = tr("Finished in %1").arg(model::formatDuration(seconds * 1000.0));
    if (const QString notRun = variantsNotRunNames(); !notRun.isEmpty())
        finished += tr("; not run: %1 (its row in Variants says why)").arg(notRun);
    endRun(true, finished);
}

void MainWindow::endRun(bool ok, const QString& message) {
    runPanel_->setRunning(false);
    runPanel_->setProgress(ok ? 1.0 : 0.0, message);
    statusBar()->showMessage(message);
    emit runStateChanged(false);
    emit runEnded(ok, message);
}

}  // namespace fusescope
