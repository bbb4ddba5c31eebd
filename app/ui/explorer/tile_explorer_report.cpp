// The resource report of the selection (the model's at once, the compiled kernel's from the
// worker) and the run of one configuration.
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

#include "model/format.h"
#include "model/tile_choices.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_explorer_widgets.h"
#include "worker/run_controller.h"

namespace fusescope {
using explorer::qs;
using explorer::wrappingLabel;

// The resource report, "Run this configuration" and what the run gave.
void TileExplorerTab::addReportControls(QWidget* column, QVBoxLayout* layout) {
    auto* reportBox = new QGroupBox(tr("Resource report"), column);
    auto* reportLayout = new QVBoxLayout(reportBox);
    refusal_ = wrappingLabel(reportBox, QStringLiteral("explorerRefusal"));
    QFont bold = refusal_->font();
    bold.setBold(true);
    refusal_->setFont(bold);
    report_ = wrappingLabel(reportBox, QStringLiteral("explorerReport"));
    reportSource_ = wrappingLabel(reportBox, QStringLiteral("explorerReportSource"));
    reportLayout->addWidget(refusal_);
    reportLayout->addWidget(report_);
    reportLayout->addWidget(reportSource_);
    layout->addWidget(reportBox);

    run_ = new QPushButton(tr("Run this configuration"), column);
    run_->setObjectName(QStringLiteral("explorerRun"));
    connect(run_, &QPushButton::clicked, this, &TileExplorerTab::runConfiguration);
    layout->addWidget(run_);
    result_ = wrappingLabel(column, QStringLiteral("explorerResult"));
    layout->addWidget(result_);
}

void TileExplorerTab::selectionChanged() {
    showModelReport();
    // Many changes in one turn of the event loop (a preset sets three dimensions) ask once.
    if (reportQueued_) return;
    reportQueued_ = true;
    QTimer::singleShot(0, this, &TileExplorerTab::requestReport);
}

void TileExplorerTab::requestReport() {
    reportQueued_ = false;
    if (!controller_) return;
    TileReportCommand command;
    command.configuration = configuration();
    command.gpuKey = gpu_->currentData().toString();
    command.target = target_;
    ++reportRequests_;
    controller_->requestTileReport(command);
}

// The model's report needs no GPU and no worker: it is shown at once, and replaced by the
// compiled kernel's report when the worker answers for the same selection.
void TileExplorerTab::showModelReport() {
    const std::optional<tiles::DeviceLimits> limits = modelLimits();
    if (!limits) {
        report_->setText(tr("No limits known for the chosen GPU."));
        return;
    }
    showReport(
        model::modelReport(configuration(), *limits),
        liveAvailable()
            ? tr("The model's numbers for %1; the compiled kernel's follow.").arg(qs(limits->name))
            : tr("The model's numbers for %1 (spec-sheet roofs).").arg(qs(limits->name)));
}

void TileExplorerTab::showReport(const tiles::ResourceReport& report, const QString& note) {
    shownReport_ = report;
    if (report.refusal) {
        refusal_->setText(tr("Refused, never launched: %1").arg(qs(report.refusal->reason)));
        refusal_->setVisible(true);
    } else {
        refusal_->clear();
        refusal_->setVisible(false);
    }
    report_->setText(reportLines(report).join(QLatin1Char('\n')));
    reportSource_->setText(note);
}

void TileExplorerTab::onReport(const TileReportOutcome& outcome) {
    if (outcome.live && !workerLive_) {
        workerLive_ = true;
        setBackendSummary(summary_);
    }
    // An answer for a selection the user has already left is not shown.
    if (!(outcome.report.configuration == configuration())) return;
    showReport(outcome.report, outcome.note);
}

void TileExplorerTab::runConfiguration() {
    if (!controller_ || sweeping_ || runningOne_) return;
    if (controller_->isRunning()) {
        result_->setText(tr("Another run or sweep is in progress: wait for it or cancel it."));
        return;
    }
    if (shownReport_ && shownReport_->refusal) {
        result_->setText(tr("Not run: %1").arg(qs(shownReport_->refusal->reason)));
        return;
    }
    TileRunCommand command;
    command.configuration = configuration();
    command.settings.repeats = repeats_->value();
    command.target = target_;
    runningOne_ = true;
    result_->setText(tr("Running %1…").arg((model::tilesText(command.configuration))));
    updateEnabled();
    controller_->submitTileRun(command);
}

void TileExplorerTab::onRunFinished(const TileRunOutcome& outcome) {
    runningOne_ = false;
    updateEnabled();
    const tiles::TileCell& cell = outcome.cell;
    if (cell.report.refusal) {
        result_->setText(tr("Refused: %1").arg(qs(cell.report.refusal->reason)));
        return;
    }
    if (!cell.measured) {
        result_->setText(tr("Not measured: %1").arg(qs(cell.error)));
        return;
    }
    QStringList lines;
    lines << tr("%1 ms median (interquartile %2–%3)")
                 .arg(model::formatMilliseconds(cell.time.medianMs),
                      model::formatMilliseconds(cell.time.q1Ms),
                      model::formatMilliseconds(cell.time.q3Ms));
    lines
        << tr("%1 GB/s · %2 TFLOP/s").arg(model::formatGBps(cell.gbps)).arg(cell.tflops, 0, 'f', 1);
    lines << (cell.dramBytes ? tr("DRAM %1 against %2 requested")
                                   .arg(model::formatBytes(static_cast<quint64>(*cell.dramBytes)),
                                        model::formatBytes(cell.requestedBytes))
                             : tr("requested %1; DRAM not measured")
                                   .arg(model::formatBytes(cell.requestedBytes)));
    lines << (cell.checkOk ? tr("check ok (error %1)") : tr("check FAILED (error %1)"))
                 .arg(model::formatRelativeError(cell.checkError));
    result_->setText(lines.join(QLatin1Char('\n')));
    if (!outcome.recording.runs.empty()) emit recordingChosen(outcome.recording);
}

}  // namespace fusescope
