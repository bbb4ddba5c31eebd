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
#include "ui/charts/chart_least_height.h"
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
#include "ui/jobs/cpu_speeds_gate.h"
#include "ui/lab/lab_wiring.h"
#include "ui/results/results_model.h"
#include "ui/run/measurement_panel.h"
#include "ui/run/run_choices.h"
#include "ui/run/run_confirmation.h"
#include "ui/run/run_panel.h"
#include "ui/sweep/sweep_chart.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/widgets/combo_box_measure.h"
#include "ui/widgets/elided_label.h"
#include "ui/window/plugged_views.h"
#include "ui/window/self_test_dialog.h"
#include "ui/window/shown_page_width.h"
#include "ui/window/tab_room.h"
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
    // Every column as wide as its contents, the last too: a stretched last column takes only the
    // room left and clips its title, with no scroll bar to reach the rest.
    table->horizontalHeader()->setStretchLastSection(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return table;
}

// A bold title over the content; `beside`, if given, fills the rest of the title's line;
// `titleLabel`, if given, receives the title's label.
QWidget* titled(const QString& title, QWidget* content, QWidget* parent, QWidget* beside = nullptr,
                QLabel** titleLabel = nullptr) {
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(title, box);
    if (titleLabel) *titleLabel = label;
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
    remeasureComboBoxesOnFontChange(QCoreApplication::instance());
    if (!settings_) {
        ownedSettings_ = std::make_unique<QSettings>();
        settings_ = ownedSettings_.get();
    }
    setWindowTitle(tr("FuseScope"));
    setWindowIcon(QIcon(QStringLiteral(":/fusescope/icons/fusescope.svg")));

    controller_ = new RunController(this);
    runPanel_ = new RunPanel;
    cpuSpeeds_ = new CpuSpeedsGate(*controller_, *runPanel_, *statusBar(), this);
    // A wait that ends without the speeds (cancelled, failed) ends the run before it began.
    connect(cpuSpeeds_, &CpuSpeedsGate::settled, this, [this] { runWaitsForCpuSpeeds_ = false; });
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
        titled(tr("Variants"), variantTable_, resultsSplitter, fusionVerdict_, &variantsTitle_));
    variantsTitle_->setObjectName(QStringLiteral("variantsTitle"));
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
    // In the window, beside the views, each keeps room for its data and whole axis title.
    for (ChartView* chart : charts_) keepLeastPlotHeight(chart);
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
    // Even halves where the window is tall enough; on a small screen the charts keep their least
    // plot height and the views take the rest.
    rightSplitter_->setStretchFactor(0, 1);
    rightSplitter_->setStretchFactor(1, 1);
    rightSplitter_->setSizes({500, 500});
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
    // Its chart and its table of points take the height while shown, as the explorer does.
    giveRoomWhileShown(chartTabs_, sweepTab_, true);
    // The sweep follows the run panel's pipeline and backend.
    const auto followRunPanel = [this] {
        const RunCommand choices = runPanel_->command();
        sweepTab_->setPipeline(QString::fromStdString(choices.request.pipeline));
        sweepTab_->setTarget(choices.request.target);
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
    addExpressionView(*this);
    addLabView(*this);
    // Every page added: from here each tab widget is as wide as its shown page needs.
    widthFollowsShownPage(viewTabs_);
    widthFollowsShownPage(chartTabs_);
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

}  // namespace fusescope
