#include "ui/main_window.h"

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
#include "runtime/run_estimate.h"
#include "ui/chart_export.h"
#include "ui/chart_export_actions.h"
#include "ui/chart_interaction.h"
#include "ui/charts.h"
#include "ui/elided_label.h"
#include "ui/explorer/tile_explorer_tab.h"
#include "ui/explorer/tile_explorer_wiring.h"
#include "ui/explorer/tile_heatmap.h"
#include "ui/explorer/tile_roofline.h"
#include "ui/measurement_panel.h"
#include "ui/plot_font_follow.h"
#include "ui/plot_text_fit.h"
#include "ui/plugged_views.h"
#include "ui/results_model.h"
#include "ui/run_choices.h"
#include "ui/run_confirmation.h"
#include "ui/run_panel.h"
#include "ui/self_test_dialog.h"
#include "ui/sweep/sweep_chart.h"
#include "ui/sweep_tab.h"
#include "ui/table_export.h"
#include "worker/run_controller.h"

void fusescopeInitUiResources() {
    Q_INIT_RESOURCE(fusescope);
}

namespace fusescope {

QString recordingFileFilter();  // main_window_desktop.cpp

namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setModel(model);
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return table;
}

// A bold title over the content; `beside`, if given, fills the rest of the title's line.
QWidget* titled(const QString& title, QWidget* content, QWidget* parent,
                QWidget* beside = nullptr) {
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(title, box);
    // Only the weight is the label's own: its size follows the zoom and the presentation layout.
    QFont bold;
    bold.setBold(true);
    label->setFont(bold);
    if (beside) {
        auto* line = new QHBoxLayout;
        line->addWidget(label);
        line->addWidget(beside, 1);
        layout->addLayout(line);
    } else {
        layout->addWidget(label);
    }
    layout->addWidget(content, 1);
    return box;
}

}  // namespace

MainWindow::MainWindow(QSettings* settings, QWidget* parent)
    : QMainWindow(parent), settings_(settings) {
    fusescopeInitUiResources();
    if (!settings_) {
        ownedSettings_ = std::make_unique<QSettings>();
        settings_ = ownedSettings_.get();
    }
    setWindowTitle(tr("FuseScope"));
    setWindowIcon(QIcon(QStringLiteral(":/fusescope/icons/fusescope.svg")));

    controller_ = new RunController(this);
    runPanel_ = new RunPanel;
    // The panel scrolls up and down on short screens, never sideways: its area is as wide as the
    // panel's least width plus the scroll bar, so the splitter cannot squeeze it to a sliver.
    panelScroll_ = new QScrollArea;
    QScrollArea* panelScroll = panelScroll_;
    panelScroll->setObjectName(QStringLiteral("runPanelScroll"));
    panelScroll->setWidget(runPanel_);
    panelScroll->setWidgetResizable(true);
    panelScroll->setFrameShape(QFrame::NoFrame);
    panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    fitRunPanelWidth();
    // Run and Cancel stay in sight under the scrolling panel, whatever the screen's height.
    auto* panelColumn = new QWidget;
    panelColumn->setObjectName(QStringLiteral("runPanelColumn"));
    auto* panelColumnLayout = new QVBoxLayout(panelColumn);
    panelColumnLayout->setContentsMargins(0, 0, 0, 0);
    panelColumnLayout->setSpacing(0);
    panelColumnLayout->addWidget(panelScroll, 1);
    auto* actionBar = new QWidget;
    actionBar->setObjectName(QStringLiteral("runActions"));
    auto* actionLayout = new QHBoxLayout(actionBar);
    // Taken out of the panel's layout: a widget given a new parent leaves its old layout.
    actionLayout->addWidget(runPanel_->runButton(), 1);
    actionLayout->addWidget(runPanel_->cancelButton());
    panelColumnLayout->addWidget(actionBar);

    variantModel_ = new VariantResultsModel(this);
    kernelModel_ = new KernelResultsModel(this);
    variantTable_ = makeTable(variantModel_, this);
    variantTable_->setObjectName(QStringLiteral("variantTable"));
    kernelTable_ = makeTable(kernelModel_, this);
    kernelTable_->setObjectName(QStringLiteral("kernelTable"));
    auto* resultsSplitter = new QSplitter(Qt::Vertical);
    // Whether fusion paid off here and why, in words: one line with the whole text in its tooltip,
    // every line of it in the presentation layout.
    fusionVerdict_ = new ElidedLabel;
    fusionVerdict_->setObjectName(QStringLiteral("fusionVerdict"));
    resultsSplitter->addWidget(
        titled(tr("Variants"), variantTable_, resultsSplitter, fusionVerdict_));
    resultsSplitter->addWidget(titled(tr("Kernels"), kernelTable_, resultsSplitter));
    resultsSplitter->setChildrenCollapsible(false);
    resultsTab_ = resultsSplitter;
    resultsTab_->installEventFilter(this);

    viewTabs_ = new QTabWidget;
    viewTabs_->setObjectName(QStringLiteral("viewTabs"));
    viewTabs_->setDocumentMode(true);
    viewTabs_->addTab(resultsSplitter, tr("Results"));
    measurementPanel_ = new MeasurementPanel;
    measurementPanel_->setObjectName(QStringLiteral("measurementPanel"));
    viewTabs_->addTab(measurementPanel_, tr("Model vs measured"));

    charts_ = {new BytesPerKernelChart, new TimePerVariantChart, new AllocationChart};
    chartSplitter_ = new QSplitter(Qt::Horizontal);
    chartSplitter_->setObjectName(QStringLiteral("chartSplitter"));
    for (ChartView* chart : charts_) chartSplitter_->addWidget(chart);
    // A chart may be dragged shut to give the others its width.
    chartSplitter_->setChildrenCollapsible(true);
    chartTabs_ = new QTabWidget;
    chartTabs_->setObjectName(QStringLiteral("chartTabs"));
    chartTabs_->setDocumentMode(true);
    chartTabs_->addTab(chartSplitter_, tr("Run charts"));

    rightSplitter_ = new QSplitter(Qt::Vertical);
    rightSplitter_->setObjectName(QStringLiteral("rightSplitter"));
    rightSplitter_->addWidget(viewTabs_);
    rightSplitter_->addWidget(chartTabs_);
    rightSplitter_->setStretchFactor(0, 2);
    rightSplitter_->setStretchFactor(1, 3);
    rightSplitter_->setSizes({380, 620});
    rightSplitter_->installEventFilter(this);
    mainSplitter_ = new QSplitter(Qt::Horizontal);
    mainSplitter_->setObjectName(QStringLiteral("mainSplitter"));
    // Below the views' least size (a small screen at 200 %, or a large zoom) the views scroll
    // instead of the window growing past the screen; the run panel's column stays outside, so
    // Run and Cancel stay in sight at every zoom.
    auto* viewScroll = new QScrollArea;
    viewScroll->setObjectName(QStringLiteral("viewScroll"));
    // Held by a splitter of one: a widget with a layout that has a height for its width (the
    // wrapped labels) would be sized to its preferred height, not to the scroll area's.
    auto* viewHolder = new QSplitter(Qt::Vertical);
    viewHolder->setObjectName(QStringLiteral("viewHolder"));
    viewHolder->addWidget(makeViewStack(rightSplitter_));
    viewHolder->setChildrenCollapsible(false);
    viewScroll->setWidget(viewHolder);
    viewScroll->setWidgetResizable(true);
    viewScroll->setFrameShape(QFrame::NoFrame);
    mainSplitter_->addWidget(panelColumn);
    mainSplitter_->addWidget(viewScroll);
    mainSplitter_->setStretchFactor(1, 1);
    mainSplitter_->setSizes({340, 1200});
    // The run panel may be dragged shut for the charts; the views may not.
    mainSplitter_->setCollapsible(0, true);
    mainSplitter_->setCollapsible(1, false);
    setCentralWidget(mainSplitter_);

    statusBar()->showMessage(tr("Looking for a GPU…"));

    connect(runPanel_, &RunPanel::runRequested, this, &MainWindow::startRun);
    connect(runPanel_, &RunPanel::cancelRequested, this, &MainWindow::cancelRun);
    connect(runPanel_, &RunPanel::leastWidthChanged, this, &MainWindow::fitRunPanelWidth);
    connect(controller_, &RunController::backendsProbed, this, &MainWindow::onBackendsProbed);
    connect(controller_, &RunController::runStarted, this, [this](const QString& note) {
        runStartedNote_ = note;
        runPanel_->setStatusText(note);
        statusBar()->showMessage(note);
    });
    connect(controller_, &RunController::progress, runPanel_, &RunPanel::setProgress);
    connect(controller_, &RunController::variantFinished, this, &MainWindow::onVariantFinished);
    connect(controller_, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(controller_, &RunController::runFailed, this,
            [this](const QString& message) { endRun(false, tr("Failed: %1").arg(message)); });
    connect(controller_, &RunController::cancelled, this,
            [this] { endRun(false, tr("Cancelled")); });
    connect(controller_, &RunController::busyChanged, this, &MainWindow::followWorker);
    // A sweep's progress shows in the run panel too, where Cancel stops it.
    connect(controller_, &RunController::tileSweepProgress, this,
            [this](const TileSweepProgress& progress) {
                if (!shownJobElsewhere_.isEmpty())
                    runPanel_->setProgress(progress.fraction,
                                           tr("Tile sweep: %1").arg(progress.stage));
            });
    connect(controller_, &RunController::sweepProgress, this,
            [this](double fraction, const QString& stage) {
                if (!shownJobElsewhere_.isEmpty())
                    runPanel_->setProgress(fraction, tr("Size sweep: %1").arg(stage));
            });

    addPluggedViews(*this);
    sweepTab_ = new SweepTab(controller_);
    sweepTab_->setObjectName(QStringLiteral("sweepTab"));
    chartTabs_->addTab(sweepTab_, tr("Size sweep"));
    // The sweep follows the run panel's pipeline and backend.
    const auto followRunPanel = [this] {
        const RunCommand choices = runPanel_->command();
        sweepTab_->setPipeline(QString::fromStdString(choices.request.pipeline));
        sweepTab_->setBackend(choices.backend);
        sweepTab_->setCudaDevice(choices.cudaDevice);
    };
    connect(runPanel_->pipelineCombo(), &QComboBox::currentIndexChanged, this, followRunPanel);
    connect(runPanel_->backendCombo(), &QComboBox::currentIndexChanged, this, followRunPanel);
    connect(runPanel_->deviceCombo(), &QComboBox::currentIndexChanged, this, followRunPanel);
    connect(sweepTab_, &SweepTab::sweepEnded, this, [this](bool, const QString& message) {
        statusBar()->showMessage(message);
        jobElsewhereEndedText_ = tr("Size sweep: %1").arg(message);
    });
    tileExplorer_ = addTileExplorer(*this);
    connect(tileExplorer_, &TileExplorerTab::sweepEnded, this,
            [this](bool, const QString& message) {
                jobElsewhereEndedText_ = tr("Tile sweep: %1").arg(message);
            });
    // The explorer's charts (named in their constructors) export like every other chart.
    tileExplorer_->heatmap()->setProperty("fusescopeExportTitle", tr("Tile heatmap"));
    tileExplorer_->roofline()->setProperty("fusescopeExportTitle", tr("Tile roofline"));
    // Every chart of the window, the plugged ones included, keeps its text inside and apart.
    // Each can be zoomed, panned and hovered for its exact values.
    sweepTab_->chart()->setProperty("fusescopeExportTitle", tr("Size sweep"));
    sweepTab_->chart()->setProperty("fusescopeFileStem", QStringLiteral("size_sweep"));
    for (QCustomPlot* plot : findChildren<QCustomPlot*>()) {
        fitPlotTextAlways(plot);
        makeChartInteractive(plot);
        followWidgetFont(plot);
    }
    // A right click exports or copies a chart; Ctrl+C copies the one under the pointer.
    addChartContextMenus(this, [this](QCustomPlot* plot, const ExportPreset& preset) {
        exportChartDialog(plot, preset);
    });
    installCopyChartShortcut(this);
    // Tables go out as CSV or as an image, from their context menu.
    addTableExportMenus(this);
    // In the presentation layout the tabs chosen (clicked, or brought up by a menu or
    // --show-tab) fill the height; connected after the parts that give their tab room.
    for (QTabWidget* tabs : {viewTabs_, chartTabs_}) {
        connect(tabs, &QTabWidget::tabBarClicked, this, [this, tabs] { presentTabs(tabs); });
        connect(tabs, &QTabWidget::currentChanged, this, [this, tabs] { presentTabs(tabs); });
    }
    buildMenus();
    restoreSettings();
    followRunPanel();
    showRecordingInViews();
    // The settings may have brought a tab to the front: the first view is still the start page.
    showStartPage();
    controller_->probe();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open =
        file->addAction(tr("&Open recording or sweep…"), this, &MainWindow::openRecordingDialog);
    open->setShortcut(QKeySequence::Open);
    QAction* save = file->addAction(tr("&Save recording…"), this, &MainWindow::saveRecordingDialog);
    save->setShortcut(QKeySequence::Save);
    setupDesktopHabits(file, save);
    file->addAction(tr("Save s&weep…"), this, &MainWindow::saveSweepDialog);
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

bool MainWindow::isRunning() const {
    return controller_->isRunning();
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
    const RunCommand command = runPanel_->command();
    if (!confirmLongRun(this, command, summary_)) return;
    startCommand(command);
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

void MainWindow::onVariantFinished(const model::RunRecord& run) {
    recording_.runs.push_back(run);
    variantModel_->appendRun(run);
    kernelModel_->appendRun(run);
    for (ChartView* chart : charts_) chart->setRecording(recording_);
    measurementPanel_->setRecording(recording_);
    emit runVariantFinished(run);
}

void MainWindow::onRunFinished(const model::Recording& recording) {
    setRecording(recording);
    if (!recording.counterStatus.isEmpty() && recording.device.backend == QLatin1String("cuda"))
        runPanel_->setStatusText(
            tr("%1\nNo counters: %2").arg(runStartedNote_, recording.counterStatus));
    const double seconds = (QDateTime::currentMSecsSinceEpoch() - runStartedMs_) / 1000.0;
    endRun(true, tr("Finished in %1").arg(model::formatDuration(seconds * 1000.0)));
}

void MainWindow::endRun(bool ok, const QString& message) {
    runPanel_->setRunning(false);
    runPanel_->setProgress(ok ? 1.0 : 0.0, message);
    statusBar()->showMessage(message);
    emit runStateChanged(false);
    emit runEnded(ok, message);
}

void MainWindow::setRecording(const model::Recording& recording) {
    recording_ = recording;
    showRecordingInViews();
    if (!recording_.runs.isEmpty()) showViews();
    emit recordingChanged(recording_);
}

void MainWindow::showRecordingInViews() {
    variantModel_->setRecording(recording_);
    fusionVerdict_->setFullText(model::fusionVerdict(recording_));
    kernelModel_->setRecording(recording_);
    fitVariantRows();
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
    Result<model::Recording> loaded = model::loadRecording(path);
    if (!loaded) return QString::fromStdString(loaded.status().message());
    if (isRunning()) cancelRun();
    openFile_ = path;
    showOnlyTheOpenedKind(OpenedKind::Recording);
    setRecording(*loaded);
    showRecordedRequestInPanel(*loaded);
    const QString name = QFileInfo(path).fileName();
    noteOpenedFile(path);
    const QString shapeNote = recordedShapeNote(*loaded);
    runPanel_->setStatusText(
        tr("Showing %1 (%2 runs, recorded by %3)")
            .arg(name)
            .arg(loaded->runs.size())
            .arg(loaded->producer.isEmpty() ? tr("an unknown program") : loaded->producer) +
        (shapeNote.isEmpty() ? QString() : QStringLiteral(". ") + shapeNote));
    // The status bar is always in sight, where the run panel may be scrolled.
    statusBar()->showMessage(
        shapeNote.isEmpty() ? tr("Opened %1").arg(QDir::toNativeSeparators(path)) : shapeNote);
    return {};
}

void MainWindow::showOnlyTheOpenedKind(OpenedKind kind) {
    if (kind != OpenedKind::Recording && !recording_.runs.isEmpty()) setRecording({});
    if (kind != OpenedKind::SizeSweep) sweepTab_->clearSweep();
    if (kind != OpenedKind::TileSweep) tileExplorer_->clearSweep();
}

// One state: the run panel shows the pipeline, variants and problem of what is on screen, so
// that Run repeats it. Recordings of pipelines this build does not know leave the panel as it is.
void MainWindow::showRecordedRequestInPanel(const model::Recording& recording) {
    if (recording.runs.isEmpty()) return;
    const model::RunRecord& first = recording.runs.front();
    if (!findPipeline(first.pipeline.toStdString())) return;
    RunCommand command = runPanel_->command();
    command.request.pipeline = first.pipeline.toStdString();
    command.request.variants.clear();
    for (const model::RunRecord& run : recording.runs)
        command.request.variants.push_back(run.variant.toStdString());
    command.request.problem = first.problem;
    runPanel_->setCommand(command);
}

QString MainWindow::saveRecording(const QString& path) const {
    if (recording_.runs.isEmpty()) return tr("There is nothing to save yet: run a pipeline first.");
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
    if (recording_.runs.isEmpty()) {
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

void MainWindow::fitRunPanelWidth() {
    panelScroll_->setMinimumWidth(runPanel_->minimumSizeHint().width() +
                                  panelScroll_->style()->pixelMetric(QStyle::PM_ScrollBarExtent));
}

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    // The zoom or the theme changed the panel's least width.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fitRunPanelWidth();
}

void MainWindow::setTablesShown(bool shown) {
    {
        const QSignalBlocker block(showTablesAction_);
        showTablesAction_->setChecked(shown);
    }
    const int index = viewTabs_->indexOf(resultsTab_);
    if (!shown && viewTabs_->currentIndex() == index)
        viewTabs_->setCurrentWidget(viewTabs_->findChild<QWidget*>(QStringLiteral("memoryStage")));
    viewTabs_->setTabVisible(index, shown);
    sweepTab_->setPointsTableShown(shown);
    settings_->setValue(QStringLiteral("view/showTables"), shown);
}

bool MainWindow::tablesShown() const {
    return viewTabs_->isTabVisible(viewTabs_->indexOf(resultsTab_));
}

void MainWindow::setZoom(double zoom) {
    zoom_ = clampZoom(zoom);
    applyZoom(zoom_);
    applyViewsFont();
    settings_->setValue(QStringLiteral("view/zoom"), zoom_);
    statusBar()->showMessage(tr("Zoom %1 %").arg(std::lround(zoom_ * 100)), 2000);
}

void MainWindow::setTheme(Theme theme) {
    theme_ = theme;
    applyTheme(theme);
    for (QAction* action : themeActions_) action->setChecked(action->data() == themeKey(theme));
    settings_->setValue(QStringLiteral("view/theme"), themeKey(theme));
}

void MainWindow::setPresentation(bool presentation, bool remember) {
    {
        const QSignalBlocker block(presentationAction_);
        presentationAction_->setChecked(presentation);
    }
    if (remember) settings_->setValue(QStringLiteral("view/presentation"), presentation);
    if (presentation == presentation_) return;
    presentation_ = presentation;
    // Before a class the verdict is read, not hovered: every losing fusion's cause in full.
    fusionVerdict_->setWrapped(presentation);
    // One chart to a tab: the run charts leave their row for tabs of their own, and go back.
    const QSignalBlocker quietTabs(chartTabs_);
    if (presentation) {
        const int at = chartTabs_->indexOf(chartSplitter_);
        const bool wasShown = chartTabs_->currentIndex() == at;
        chartTabs_->removeTab(at);
        // Short names: the bar keeps every tab in sight with large text; the chart says the rest.
        const QStringList names = {tr("Bytes per kernel"), tr("Time per variant"),
                                   tr("Allocation")};
        for (int i = static_cast<int>(charts_.size()) - 1; i >= 0; --i) {
            chartTabs_->insertTab(at, charts_[i], names.value(i, charts_[i]->title()));
            chartTabs_->setTabToolTip(at, charts_[i]->title());
        }
        if (wasShown) chartTabs_->setCurrentIndex(at);
    } else {
        const int at = chartTabs_->indexOf(charts_.front());
        const bool wasShown = at >= 0 && chartTabs_->currentIndex() >= at &&
                              chartTabs_->currentIndex() < at + charts_.size();
        for (ChartView* chart : charts_) chartTabs_->removeTab(chartTabs_->indexOf(chart));
        for (ChartView* chart : charts_) {
            chartSplitter_->addWidget(chart);
            chart->show();
        }
        chartTabs_->insertTab(std::max(at, 0), chartSplitter_, tr("Run charts"));
        if (wasShown) chartTabs_->setCurrentWidget(chartSplitter_);
    }
    if (presentation) {
        panelSizesBeforePresentation_ = mainSplitter_->sizes();
        viewSizesBeforePresentation_ = rightSplitter_->sizes();
        // Folded, not hidden: the splitter's handle brings the panel back for a moment.
        mainSplitter_->setSizes({0, 100000});
        applyViewsFont();
        presentTabs(presentedTabs_ ? presentedTabs_ : viewTabs_);
        fitVariantRows();
        return;
    }
    for (QTabWidget* tabs : {viewTabs_, chartTabs_}) {
        tabs->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
        tabs->setMaximumHeight(QWIDGETSIZE_MAX);
    }
    applyViewsFont();
    if (!panelSizesBeforePresentation_.isEmpty())
        mainSplitter_->setSizes(panelSizesBeforePresentation_);
    if (!viewSizesBeforePresentation_.isEmpty())
        rightSplitter_->setSizes(viewSizesBeforePresentation_);
}

void MainWindow::applyViewsFont() {
    // A default font inherits everything: the views then follow the application's zoom.
    const QFont font =
        presentation_ ? presentationFont(QApplication::font(), logicalDpiY()) : QFont();
    rightSplitter_->setFont(font);
    // Header views draw their sections in the font of their own, not the one they inherit.
    for (QHeaderView* header : rightSplitter_->findChildren<QHeaderView*>()) {
        header->setFont(font);
        header->viewport()->setFont(font);
    }
}

void MainWindow::presentTabs(QTabWidget* shown) {
    if (!presentation_) return;
    presentedTabs_ = shown;
    QTabWidget* folded = shown == viewTabs_ ? chartTabs_ : viewTabs_;
    // The folded tabs keep their bar, to be clicked; their least height no longer counts.
    folded->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    folded->setMaximumHeight(folded->tabBar()->sizeHint().height());
    shown->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    shown->setMaximumHeight(QWIDGETSIZE_MAX);
    // In the splitter's own pixels: sizes past its height would be scaled down, the bar with them.
    const int bar = folded->maximumHeight();
    const int total = rightSplitter_->height() - rightSplitter_->handleWidth();
    if (total <= bar) return;  // laid out when shown (eventFilter)
    rightSplitter_->setSizes(shown == viewTabs_ ? QList<int>{total - bar, bar}
                                                : QList<int>{bar, total - bar});
}

void MainWindow::fitVariantRows() {
    auto* results = qobject_cast<QSplitter*>(resultsTab_);
    if (!presentation_ || !results || results->count() < 2) return;
    // Every variant's row, the header, the frame, a scroll bar where the columns run wide, and
    // the title line above the table; the kernels get the rest.
    const int table = variantTable_->horizontalHeader()->sizeHint().height() +
                      variantTable_->verticalHeader()->length() + 2 * variantTable_->frameWidth() +
                      variantTable_->horizontalScrollBar()->sizeHint().height() +
                      // A little room: the boxes' margins and rounding take a few pixels.
                      variantTable_->verticalHeader()->defaultSectionSize() / 3;
    // The title line holds the wrapped verdict: as tall as its lines at the width it has (not
    // its size hint, which holds the height of the width it had before and can be far taller).
    QLayout* box = results->widget(0)->layout();
    QLayout* line = box->itemAt(0) ? box->itemAt(0)->layout() : nullptr;
    const int lineWidth =
        results->width() - box->contentsMargins().left() - box->contentsMargins().right();
    const int title =
        std::max(line && line->hasHeightForWidth() ? line->heightForWidth(lineWidth) : 0,
                 fusionVerdict_->fontMetrics().height()) +
        box->spacing();
    const int total = results->height();
    if (total <= 0) return;  // laid out when shown (eventFilter)
    // The kernels keep their title, header, a few whole rows and their scroll bar.
    const int kernelRows = 2;
    const int kernels = fusionVerdict_->fontMetrics().height() +
                        kernelTable_->horizontalHeader()->sizeHint().height() +
                        kernelRows * kernelTable_->verticalHeader()->defaultSectionSize() +
                        2 * kernelTable_->frameWidth() +
                        kernelTable_->horizontalScrollBar()->sizeHint().height() +
                        results->handleWidth();
    const int wanted = std::min(table + title, std::max(total - kernels, 1));
    results->setSizes({wanted, std::max(total - wanted, 1)});
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // The Results tab got its size (a resize, the first show): once its splitter has laid it out,
    // the variants get their rows.
    if (watched == resultsTab_ &&
        (event->type() == QEvent::Resize || event->type() == QEvent::Show) && presentation_)
        QTimer::singleShot(0, this, &MainWindow::fitVariantRows);
    // The views got a new height: the presented tabs take it, the others keep their bar.
    if (watched == rightSplitter_ && event->type() == QEvent::Resize && presentation_)
        QTimer::singleShot(0, this,
                           [this] { presentTabs(presentedTabs_ ? presentedTabs_ : viewTabs_); });
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::setValueScale(ValueScale scale) {
    valueScale_ = scale;
    for (QAction* action : valueScaleActions_)
        action->setChecked(action->data().toInt() == static_cast<int>(scale));
    for (ChartView* chart : charts_) chart->setValueScale(scale);
    emit valueScaleChanged(scale);
    settings_->setValue(QStringLiteral("view/valueScale"), static_cast<int>(scale));
}

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

QString MainWindow::recordedShapeNote(const model::Recording& recording) {
    problemTooLongHere_.reset();
    if (recording.device.backend == QLatin1String("cpu")) return {};
    const RunCommand command = runPanel_->command();
    const std::optional<double> seconds = cpuEstimateFor(command, summary_);
    if (!seconds || *seconds <= kAskAboveSeconds) return {};
    // Kept out of the settings: the next start should not begin with a GPU-sized shape.
    problemTooLongHere_ = command.request.problem;
    return tr("Run panel: shape from the %1 recording; a run of it takes %2 on this CPU.")
        .arg(recording.device.name, QString::fromStdString(describeDuration(*seconds)));
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
    choices.cudaDevice = runPanel_->rememberedDevice();
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
