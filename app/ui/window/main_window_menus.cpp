// The window's menus and its About and self-test dialogs.
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
#include "model/version.h"
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
#include "ui/expression/expression_wiring.h"
#include "ui/lesson/lesson_launch_window.h"
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

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open =
        file->addAction(tr("&Open recording or sweep…"), this, &MainWindow::openRecordingDialog);
    open->setShortcut(QKeySequence::Open);
    QAction* save = file->addAction(tr("&Save recording…"), this, &MainWindow::saveRecordingDialog);
    save->setShortcut(QKeySequence::Save);
    setupDesktopHabits(file, save);
    file->addAction(tr("Save s&weep…"), this, &MainWindow::saveSweepDialog);
    file->addAction(tr("Open &lesson plan…"), this, [this] { openLessonDialog(*this); });
    // Every exportable chart (those other parts add included), each in every preset.
    fillExportMenuOnShow(
        file->addMenu(tr("&Export chart")), this,
        [this](QCustomPlot* plot, const ExportPreset& preset) { exportChartDialog(plot, preset); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    QAction* start = run->addAction(tr("&Run selected variants"), this, &MainWindow::startRun);
    start->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    QAction* cancel = run->addAction(tr("&Cancel run"), this, &MainWindow::cancelRun);
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    cancel->setEnabled(false);
    // Whatever holds the worker (a run, a size or tile sweep), Esc cancels it and Ctrl+R waits.
    connect(controller_, &RunController::busyChanged, this, [this, start, cancel] {
        start->setEnabled(!controller_->isRunning());
        cancel->setEnabled(controller_->isRunning());
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Start &page"), this, &MainWindow::showStartPage);
    view->addAction(tr("E&xpression lab"), this, [this] { showExpressionView(*this); });
    showTablesAction_ = view->addAction(tr("Show &tables"));
    showTablesAction_->setCheckable(true);
    showTablesAction_->setChecked(true);
    showTablesAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    showTablesAction_->setToolTip(
        tr("Hide the result tables to give the charts and the memory stage the room"));
    connect(showTablesAction_, &QAction::toggled, this, &MainWindow::setTablesShown);
    view->addSeparator();
    QAction* zoomIn = view->addAction(tr("Zoom &in"), this, [this] { setZoom(zoom_ * kZoomStep); });
    zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence::ZoomIn});
    QAction* zoomOut =
        view->addAction(tr("Zoom &out"), this, [this] { setZoom(zoom_ / kZoomStep); });
    zoomOut->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Minus), QKeySequence::ZoomOut});
    QAction* zoomReset = view->addAction(tr("&Reset zoom"), this, [this] { setZoom(1.0); });
    zoomReset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    presentationAction_ = view->addAction(tr("&Presentation layout"));
    presentationAction_->setObjectName(QStringLiteral("presentationAction"));
    presentationAction_->setCheckable(true);
    presentationAction_->setShortcut(QKeySequence(Qt::Key_F5));
    presentationAction_->setToolTip(
        tr("For a projector: the run panel folds away, one chart or table fills the window, and "
           "its text is at least %1 px (Ctrl+R runs, Esc cancels)")
            .arg(kPresentationTextPixels));
    connect(presentationAction_, &QAction::toggled, this,
            [this](bool presentation) { setPresentation(presentation); });
    QMenu* scaleMenu = view->addMenu(tr("&Value axes"));
    scaleMenu->setToolTip(tr("The scale of the bytes, time and bandwidth-over-time charts"));
    auto* scaleGroup = new QActionGroup(this);
    for (const auto& [scale, name] :
         {std::pair{ValueScale::Automatic,
                    tr("&Automatic (logarithmic past %1x)").arg(kLogScaleSpread)},
          std::pair{ValueScale::Linear, tr("&Linear")},
          std::pair{ValueScale::Logarithmic, tr("L&ogarithmic")}}) {
        QAction* action = scaleMenu->addAction(name, this, [this, scale] { setValueScale(scale); });
        action->setCheckable(true);
        action->setChecked(scale == valueScale_);
        action->setData(static_cast<int>(scale));
        scaleGroup->addAction(action);
        valueScaleActions_.push_back(action);
    }
    view->addSeparator();
    QMenu* themeMenu = view->addMenu(tr("T&heme"));
    auto* themeGroup = new QActionGroup(this);
    for (const auto& [theme, name] :
         {std::pair{Theme::System, tr("&System")}, std::pair{Theme::Light, tr("&Light")},
          std::pair{Theme::Dark, tr("&Dark")}}) {
        QAction* action = themeMenu->addAction(name, this, [this, theme] { setTheme(theme); });
        action->setCheckable(true);
        action->setData(themeKey(theme));
        themeGroup->addAction(action);
        themeActions_.push_back(action);
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Check this machine…"), this, &MainWindow::showSelfTest);
    help->addAction(tr("&About FuseScope"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::showSelfTest() {
    auto* dialog = new SelfTestDialog(controller_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    dialog->check();
}

void MainWindow::showAbout() {
    QString cuda;
    if (summary_.cudaUsable)
        cuda = tr("CUDA runtime %1, driver %2<br>Device: %3")
                   .arg(summary_.cudaRuntimeVersion, summary_.cudaDriverVersion,
                        summary_.cudaDeviceName.toHtmlEscaped());
    else if (!summary_.cudaBuilt && backendsKnown_)
        cuda = tr("Built without CUDA");
    else
        cuda = tr("CUDA not usable: %1").arg(summary_.cudaReason.toHtmlEscaped());
    QMessageBox::about(
        this, tr("About FuseScope"),
        tr("<h3>FuseScope %1</h3>"
           "<p>Makes GPU memory passes visible: unfused and fused pipelines run as real "
           "kernels, measured, charted and animated.</p>"
           "<p>Qt %2 (built with %3)<br>%4<br>CPU: %5</p>"
           "<p>License: GPL-3.0-or-later (it links QCustomPlot, GPL-3.0). Qt is LGPL-3.0, "
           "giflib MIT, the CUDA runtime under NVIDIA's redistribution terms: see "
           "THIRD-PARTY-LICENSES (beside the launchers in the bundle, in "
           "/usr/share/doc/fusescope in the Debian package).</p>")
            .arg(QString::fromLatin1(model::kFuseScopeVersion), QString::fromLatin1(qVersion()),
                 QStringLiteral(QT_VERSION_STR), cuda, summary_.cpuName.toHtmlEscaped()));
}

}  // namespace fusescope
