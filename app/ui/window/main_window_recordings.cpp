// Recordings, sweeps and tile sweeps opened, saved and exported from the window.
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
#include "model/recorded_pipelines.h"
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

QString recordingFileFilter();  // main_window_desktop.cpp

void MainWindow::setRecording(const model::Recording& recording) {
    recording_ = recording;
    showRecordingInViews();
    if (!recording_.runs.empty()) showViews();
    emit recordingChanged(recording_);
}

QString MainWindow::variantsNotRunNames() const {
    QStringList names;
    for (const model::VariantNotRun& variant : recording_.variantsNotRun)
        names << QString::fromStdString(variant.variant);
    return names.join(QStringLiteral(", "));
}

void MainWindow::showRecordingInViews() {
    variantModel_->setRecording(recording_);
    // A variant the run left out is named where the eye lands first; its row says why.
    const QString notRun = variantsNotRunNames();
    variantsTitle_->setText(notRun.isEmpty() ? tr("Variants")
                                             : tr("Variants (not run: %1)").arg(notRun));
    fusionVerdict_->setFullText(model::fusionVerdict(recording_));
    kernelModel_->setRecording(recording_);
    fitVariantRows();
    // Again once the tables and the wrapped verdict have been laid out with the new rows: at the
    // end of a live run the rows' and the verdict's heights are known only after that pass.
    QTimer::singleShot(0, this, &MainWindow::fitVariantRows);
    for (ChartView* chart : charts_) chart->setRecording(recording_);
    measurementPanel_->setRecording(recording_);
}

QString MainWindow::openRecording(const QString& path) {
    // Every view shows what the file holds: those of another kind of file are emptied, so that
    // nothing of the previous file stays on screen.
    if (model::isTileSweepFile(path)) {
        if (const QString error = openTileSweepInWindow(*this, *tileExplorer_, path);
            !error.isEmpty())
            return error;
        showOnlyTheOpenedKind(OpenedKind::TileSweep);
        noteOpenedFile(path);
        return {};
    }
    if (model::isSweepFile(path)) {
        if (controller_->isSweeping()) cancelRun();
        if (const QString error = sweepTab_->openSweepFile(path); !error.isEmpty()) return error;
        showOnlyTheOpenedKind(OpenedKind::SizeSweep);
        // The run panel names the sweep's pipeline, which the sweep's controls follow.
        if (const int index = runPanel_->pipelineCombo()->findData(sweepTab_->pipeline());
            index >= 0)
            runPanel_->pipelineCombo()->setCurrentIndex(index);
        chartTabs_->setCurrentWidget(sweepTab_);
        statusBar()->showMessage(tr("Opened the sweep %1").arg(QDir::toNativeSeparators(path)));
        noteOpenedFile(path);
        return {};
    }
    Result<model::Recording> loaded = model::openRecording(path);
    if (!loaded) return QString::fromStdString(loaded.status().message());
    if (isRunning()) cancelRun();
    openFile_ = path;
    showOnlyTheOpenedKind(OpenedKind::Recording);
    setRecording(*loaded);
    showRecordedRequestInPanel(*loaded);
    const QString name = QFileInfo(path).fileName();
    noteOpenedFile(path);
    const QString opened =
        tr("Showing %1 (%2 runs, recorded by %3)")
            .arg(name)
            .arg(loaded->runs.size())
            .arg(loaded->producer.isEmpty() ? tr("an unknown program") : loaded->producer);
    runPanel_->setStatusText(opened);
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    noteRecordedShape(*loaded, opened);
    return {};
}

void MainWindow::showOnlyTheOpenedKind(OpenedKind kind) {
    if (kind != OpenedKind::Recording && !recording_.runs.empty()) setRecording({});
    if (kind != OpenedKind::SizeSweep) sweepTab_->clearSweep();
    if (kind != OpenedKind::TileSweep) tileExplorer_->clearSweep();
}

// One state: the run panel shows the pipeline, variants and problem of what is on screen, so
// that Run repeats it. Recordings of pipelines this build does not know leave the panel as it is.
void MainWindow::showRecordedRequestInPanel(const model::Recording& recording) {
    if (recording.runs.empty()) return;
    const model::VariantResult& first = recording.runs.front();
    if (!findPipeline(first.pipeline)) return;
    RunCommand command = runPanel_->command();
    command.request.pipeline = first.pipeline;
    command.request.variants.clear();
    for (const model::VariantResult& run : recording.runs)
        command.request.variants.push_back(run.variant);
    command.request.problem = first.problem;
    runPanel_->setCommand(command);
}

QString MainWindow::saveRecording(const QString& path) const {
    if (recording_.runs.empty()) return tr("There is nothing to save yet: run a pipeline first.");
    const Status status = model::saveRecording(recording_, path);
    return status ? QString() : QString::fromStdString(status.message());
}

void MainWindow::openRecordingDialog() {
    const QString directory = settings_->value(QStringLiteral("files/lastDirectory")).toString();
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open recording"), directory, recordingFileFilter());
    if (path.isEmpty()) return;
    settings_->setValue(QStringLiteral("files/lastDirectory"), QFileInfo(path).absolutePath());
    if (const QString error = openRecording(path); !error.isEmpty())
        QMessageBox::critical(this, tr("Cannot open file"), error);
}

void MainWindow::saveSweepDialog() {
    if (!sweepTab_->hasSweep()) {
        QMessageBox::information(this, tr("Save sweep"), sweepTab_->saveSweepFile(QString()));
        return;
    }
    const QString directory = settings_->value(QStringLiteral("files/lastDirectory")).toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save sweep"),
                                                      directory + QStringLiteral("/sweep.json"),
                                                      tr("FuseScope sweeps (*.json)"));
    if (path.isEmpty()) return;
    settings_->setValue(QStringLiteral("files/lastDirectory"), QFileInfo(path).absolutePath());
    if (const QString error = sweepTab_->saveSweepFile(path); !error.isEmpty())
        QMessageBox::critical(this, tr("Cannot save sweep"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::saveRecordingDialog() {
    if (recording_.runs.empty()) {
        QMessageBox::information(this, tr("Save recording"), saveRecording(QString()));
        return;
    }
    const QString directory = settings_->value(QStringLiteral("files/lastDirectory")).toString();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save recording"), directory + QStringLiteral("/recording.fusescope.json"),
        tr("FuseScope recordings (*.fusescope.json *.json)"));
    if (path.isEmpty()) return;
    settings_->setValue(QStringLiteral("files/lastDirectory"), QFileInfo(path).absolutePath());
    if (const QString error = saveRecording(path); !error.isEmpty()) {
        QMessageBox::critical(this, tr("Cannot save recording"), error);
    } else {
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
        noteOpenedFile(path);
    }
}

void MainWindow::exportChartDialog(QCustomPlot* chart, const ExportPreset& preset) {
    const QString directory = settings_->value(QStringLiteral("files/lastDirectory")).toString();
    QString filter = tr("PNG image (*.png)");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart as %1").arg(preset.title),
        directory + QLatin1Char('/') + exportFileStem(*chart) + QLatin1Char('-') + preset.key +
            ".png",
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &filter);
    if (path.isEmpty()) return;
    settings_->setValue(QStringLiteral("files/lastDirectory"), QFileInfo(path).absolutePath());
    QString target = path;
    if (!isSupportedChartFormat(target)) {
        // The user typed no suffix: take the one of the chosen filter.
        target += filter.contains(QLatin1String("svg"))   ? QStringLiteral(".svg")
                  : filter.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                          : QStringLiteral(".png");
    }
    if (const QString error = exportChart(*chart, target, preset); !error.isEmpty())
        QMessageBox::critical(this, tr("Cannot export chart"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(target)), 5000);
}

}  // namespace fusescope
