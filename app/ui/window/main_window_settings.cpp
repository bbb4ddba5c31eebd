// What the window keeps between starts: restored at start, saved at close.
#include "ui/window/main_window.h"

#include "ui/jobs/cpu_speeds_gate.h"

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
#include "model/run_limits.h"
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

void MainWindow::restoreSettings() {
    runPanel_->setCommand(loadRunChoices(*settings_));
    // The system theme is what the application starts with: nothing to apply.
    const Theme theme = themeFromKey(settings_->value(QStringLiteral("view/theme")).toString());
    if (theme != Theme::System) setTheme(theme);
    for (QAction* action : themeActions_) action->setChecked(action->data() == themeKey(theme));
    theme_ = theme;
    const double zoom = settings_->value(QStringLiteral("view/zoom"), 1.0).toDouble();
    if (zoom != 1.0) setZoom(zoom);
    setTablesShown(settings_->value(QStringLiteral("view/showTables"), true).toBool());
    const QByteArray geometry = settings_->value(QStringLiteral("window/geometry")).toByteArray();
    if (geometry.isEmpty() || !restoreGeometry(geometry)) {
        // A first start: most of the screen, never more than it.
        const QRect available = screen()->availableGeometry();
        resize(std::min(1500, available.width() * 9 / 10),
               std::min(950, available.height() * 9 / 10));
    }
    rightSplitter_->restoreState(
        settings_->value(QStringLiteral("window/rightSplitter")).toByteArray());
    mainSplitter_->restoreState(
        settings_->value(QStringLiteral("window/mainSplitter")).toByteArray());
    const int scale = settings_->value(QStringLiteral("view/valueScale"), 0).toInt();
    if (scale >= 0 && scale <= static_cast<int>(ValueScale::Logarithmic))
        setValueScale(static_cast<ValueScale>(scale));
    setPresentation(settings_->value(QStringLiteral("view/presentation"), false).toBool());
}

void MainWindow::noteRecordedShape(const model::Recording& recording, const QString& opened) {
    problemTooLongHere_.reset();
    if (recording.device.backend == BackendKind::Cpu) {
        cpuSpeeds_->cancel();  // a note for a recording opened before would arrive too late
        return;
    }
    const RunCommand command = runPanel_->command();
    cpuSpeeds_->whenKnown(
        command, summary_,
        [this, command, opened, device = QString::fromStdString(recording.device.name)] {
            const std::optional<double> seconds = cpuEstimateFor(command, summary_);
            if (!seconds || !model::runNeedsConfirmation(*seconds)) return;
            // Kept out of the settings: the next start should not begin with a GPU-sized shape.
            problemTooLongHere_ = command.request.problem;
            const QString note =
                tr("Run panel: shape from the %1 recording; a run of it takes %2 on this CPU.")
                    .arg(device, model::durationText(*seconds));
            runPanel_->setStatusText(opened + QStringLiteral(". ") + note);
            // The status bar is always in sight, where the run panel may be scrolled.
            statusBar()->showMessage(note);
        });
}

void MainWindow::saveSettings() {
    RunCommand choices = runPanel_->command();
    if (problemTooLongHere_ && choices.request.problem == *problemTooLongHere_) {
        const RunCommand saved = loadRunChoices(*settings_);
        const PipelineSpec* pipeline = findPipeline(choices.request.pipeline);
        choices.request.problem = saved.request.pipeline == choices.request.pipeline || !pipeline
                                      ? saved.request.problem
                                      : pipeline->defaultProblem();
    }
    choices.request.target.cudaDevice = runPanel_->rememberedDevice();
    saveRunChoices(*settings_, choices);
    settings_->setValue(QStringLiteral("window/geometry"), saveGeometry());
    // The presentation layout's folds are not the user's split: the split from before is kept.
    if (presentation_ && !viewSizesBeforePresentation_.isEmpty()) {
        const QByteArray presented = rightSplitter_->saveState();
        const QByteArray panel = mainSplitter_->saveState();
        rightSplitter_->setSizes(viewSizesBeforePresentation_);
        mainSplitter_->setSizes(panelSizesBeforePresentation_);
        settings_->setValue(QStringLiteral("window/rightSplitter"), rightSplitter_->saveState());
        settings_->setValue(QStringLiteral("window/mainSplitter"), mainSplitter_->saveState());
        rightSplitter_->restoreState(presented);
        mainSplitter_->restoreState(panel);
    } else {
        settings_->setValue(QStringLiteral("window/rightSplitter"), rightSplitter_->saveState());
        settings_->setValue(QStringLiteral("window/mainSplitter"), mainSplitter_->saveState());
    }
    settings_->sync();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveSettings();
    if (isRunning()) controller_->cancel();
    QMainWindow::closeEvent(event);
}

}  // namespace fusescope
