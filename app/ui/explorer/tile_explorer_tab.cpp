// The Tile explorer tab's frame: the splitter of controls and views, the worker's answers wired to
// the report, the run and the sweep, the remembered choices and what the backends allow.
#include "ui/explorer/tile_explorer_tab.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QVBoxLayout>
#include <cmath>
#include <memory>

#include "ui/explorer/tile_explorer_widgets.h"
#include "ui/widgets/scroll_column.h"
#include "worker/run_controller.h"

namespace fusescope {

TileExplorerTab::TileExplorerTab(RunController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
    // The first variant the registry declares tunable at run time is what the tab explores.
    if (const auto tunable = tunableVariants(); !tunable.empty()) {
        pipelineName_ = tunable.front().first->name;
        variantName_ = tunable.front().second->name;
    }

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("explorerSplitter"));
    auto* controlsScroll = new QScrollArea(splitter);
    controlsScroll->setObjectName(QStringLiteral("explorerControlsScroll"));
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setFrameShape(QFrame::NoFrame);
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QWidget* controls = buildControls();
    controlsScroll->setWidget(controls);
    controlsScroll_ = controlsScroll;
    keepScrollColumnFitted(controlsScroll);
    splitter->addWidget(controlsScroll);
    splitter->addWidget(buildViews());
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(1, false);
    splitter->setSizes({300, 900});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    if (controller_) {
        connect(controller_, &RunController::busyChanged, this, &TileExplorerTab::updateEnabled);
        connect(controller_, &RunController::tileReportReady, this, &TileExplorerTab::onReport);
        connect(controller_, &RunController::tileReportFailed, this,
                [this](const QString& message) {
                    reportSource_->setText(tr("The worker could not report: %1").arg(message));
                });
        connect(controller_, &RunController::tileRunFinished, this,
                &TileExplorerTab::onRunFinished);
        connect(controller_, &RunController::tileRunFailed, this, [this](const QString& message) {
            runningOne_ = false;
            result_->setText(tr("The run failed: %1").arg(message));
            updateEnabled();
        });
        connect(controller_, &RunController::tileSweepStarted, this,
                &TileExplorerTab::onSweepStarted);
        connect(controller_, &RunController::tileSweepProgress, this,
                &TileExplorerTab::onSweepProgress);
        connect(controller_, &RunController::tileCellMeasured, this, &TileExplorerTab::onCell);
        connect(controller_, &RunController::tileSweepFinished, this,
                [this](const tiles::TileSweep& sweep) { onSweepFinished(sweep, false); });
        connect(controller_, &RunController::tileSweepCancelled, this,
                [this](const tiles::TileSweep& partial) { onSweepFinished(partial, true); });
        connect(controller_, &RunController::tileSweepFailed, this,
                [this](const QString& message) { endSweep(false, tr("Failed: %1").arg(message)); });
        connect(controller_, &RunController::progress, this,
                [this](double fraction, const QString& stage) {
                    if (runningOne_)
                        result_->setText(
                            tr("Running: %1 (%2%)").arg(stage).arg(std::lround(fraction * 100)));
                });
        // A plain cancel (of a run of one configuration) answers with the runs' cancelled().
        connect(controller_, &RunController::cancelled, this, [this] {
            if (!runningOne_) return;
            runningOne_ = false;
            result_->setText(tr("Cancelled"));
            updateEnabled();
        });
    }
    setBackendSummary(summary_);
    selectionChanged();
}

void TileExplorerTab::setSettings(QSettings* settings) {
    settings_ = settings;
    if (!settings_) return;
    restoreChoices();
    saveOnChange(this);
}

void TileExplorerTab::saveOnChange(QWidget* within) {
    if (!settings_) return;
    const auto save = [this] { saveChoices(); };
    for (QComboBox* combo : within->findChildren<QComboBox*>())
        connect(combo, &QComboBox::currentIndexChanged, this, save);
    for (QSpinBox* spin : within->findChildren<QSpinBox*>())
        connect(spin, &QSpinBox::valueChanged, this, save);
}

// Another pipeline's kernel: its dimensions, dtypes, presets and tiles replace the controls.
// The old ones go later, as the kernel selector that asked for this is among them.
void TileExplorerTab::choosePipeline(const std::string& pipeline, const std::string& variant) {
    pipelineName_ = pipeline;
    variantName_ = variant;
    dimensions_.clear();
    tiles_.clear();
    ranges_.clear();
    rangeRows_.clear();
    QWidget* old = controlsScroll_->takeWidget();
    controlsScroll_->setWidget(buildControls());
    if (old) old->deleteLater();
    saveOnChange(controlsScroll_->widget());
    applyVariant();
    setBackendSummary(summary_);
}

// Every combo by its data (a preset's name, a tile's value), every spin box by its value, keyed
// by object name: a choice the program no longer offers is left at its default.
void TileExplorerTab::saveChoices() const {
    if (!settings_) return;
    settings_->beginGroup(QStringLiteral("explorer"));
    for (const QComboBox* combo : findChildren<QComboBox*>())
        if (!combo->objectName().isEmpty())
            settings_->setValue(combo->objectName(), combo->currentData());
    for (const QSpinBox* spin : findChildren<QSpinBox*>())
        if (!spin->objectName().isEmpty()) settings_->setValue(spin->objectName(), spin->value());
    settings_->endGroup();
}

void TileExplorerTab::restoreChoices() {
    settings_->beginGroup(QStringLiteral("explorer"));
    {
        std::vector<std::unique_ptr<QSignalBlocker>> blocks;
        for (QSpinBox* spin : findChildren<QSpinBox*>()) {
            const QVariant value = settings_->value(spin->objectName());
            if (!value.isValid()) continue;
            blocks.push_back(std::make_unique<QSignalBlocker>(spin));
            spin->setValue(value.toInt());
        }
        for (QComboBox* combo : findChildren<QComboBox*>()) {
            // The preset follows the dimensions (fillPresets); the GPU's list may change.
            if (combo == preset_) continue;
            const QVariant value = settings_->value(combo->objectName());
            if (!value.isValid()) continue;
            const int index = combo->findData(value);
            if (index < 0) continue;
            blocks.push_back(std::make_unique<QSignalBlocker>(combo));
            combo->setCurrentIndex(index);
        }
    }
    settings_->endGroup();
    applyVariant();
    fillPresets();
    updateSweepSize();
    selectionChanged();
    refreshViews();
}

const PipelineSpec* TileExplorerTab::pipeline() const {
    return findPipeline(pipelineName_);
}

bool TileExplorerTab::liveAvailable() const {
    return (summary_.cudaBuilt && summary_.cudaUsable) || workerLive_;
}

void TileExplorerTab::setTarget(const Target& target) {
    target_ = target;
    setBackendSummary(summary_);
}

void TileExplorerTab::setBackendSummary(const BackendSummary& summary) {
    summary_ = summary;
    backendsKnown_ =
        !summary.cpuName.isEmpty() || summary.cudaBuilt || !summary.cudaReason.isEmpty();
    if (!backendsKnown_ && !workerLive_)
        gpuNote_->setText(tr("Looking for a GPU…"));
    else if (liveAvailable())
        gpuNote_->setText(summary_.cudaDeviceName.isEmpty()
                              ? tr("Live exploration on this machine's GPU.")
                              : tr("Live exploration on %1.").arg(summary_.cudaDeviceName));
    else if (target_.backend == BackendChoice::Cpu)
        gpuNote_->setText(
            tr("Live exploration needs an NVIDIA GPU. With the CPU backend chosen in "
               "the run panel, Run and Sweep time the lesson kernel's CPU port: "
               "registers, occupancy and the GPU's limits do not apply to those "
               "times. The model's numbers are for the GPU chosen under Problem."));
    else
        gpuNote_->setText(
            tr("Live exploration needs an NVIDIA GPU, and none is usable here. The model's "
               "numbers below (bytes, FLOPs, grid against SMs) are for the GPU chosen under "
               "Problem; recorded tile sweeps open with File > Open."));
    // The driver's own words once, on demand: the start page says it in plain words.
    gpuNote_->setToolTip(liveAvailable() || summary.cudaReason.isEmpty()
                             ? QString()
                             : tr("Why: %1").arg(summary.cudaReason));
    updateEnabled();
    selectionChanged();
}

bool TileExplorerTab::canMeasure() const {
    return liveAvailable() || target_.backend == BackendChoice::Cpu;
}

void TileExplorerTab::updateEnabled() {
    const bool busy = sweeping_ || runningOne_;
    const bool live = canMeasure();
    const QString noGpu = tr("Needs an NVIDIA GPU: open a recorded tile sweep instead.");
    const QString other = controller_ && controller_->isRunning() && !busy
                              ? tr("Another run or sweep is in progress.")
                              : QString();
    // Another job holds the worker (a run of the run panel, a size sweep): Run and Sweep wait.
    run_->setEnabled(live && !busy && other.isEmpty());
    run_->setToolTip(!live              ? noGpu
                     : !other.isEmpty() ? other
                                        : tr("Compile (or take from the cache) and time this "
                                             "configuration."));
    const QString invalid = sweepValidationMessage();
    sweepButton_->setEnabled(live && !busy && other.isEmpty() && invalid.isEmpty());
    sweepButton_->setToolTip(!live ? noGpu : !invalid.isEmpty() ? invalid : other);
    cancel_->setEnabled(busy);
    save_->setEnabled(!sweeping_ && hasSweep());
}

}  // namespace fusescope
