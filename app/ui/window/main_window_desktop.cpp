// The main window's desktop habits, apart from its views: the start page (first view, what to do
// next, no usable GPU said once with the reason), the replay banner, recent files, drag and drop,
// the window title, and comparing two recordings.
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "model/recorded_pipelines.h"
#include "model/recording_catalog.h"
#include "model/recording_description.h"
#include "model/recording_json.h"
#include "model/sweep_json.h"
#include "ui/compare/compare_window.h"
#include "ui/run/run_panel.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/window/file_drop.h"
#include "ui/window/main_window.h"
#include "ui/window/recent_files.h"
#include "ui/window/start_page.h"

namespace fusescope {

QString recordingFileFilter() {
    return QObject::tr("FuseScope recordings and sweeps (*.fusescope.json *.json);;All files (*)");
}

QWidget* MainWindow::makeViewStack(QWidget* views) {
    // Not a QStackedWidget: its least size is that of its largest page, and the views' least
    // width would make the start page scroll sideways on a small screen. A hidden page here
    // counts for nothing.
    viewStack_ = new QWidget;
    viewStack_->setObjectName(QStringLiteral("viewStack"));
    auto* stack = new QVBoxLayout(viewStack_);
    stack->setContentsMargins(0, 0, 0, 0);
    startPage_ = new StartPage;
    // Every kind openRecording() opens: runs, size sweeps, tile sweeps (the Tile explorer).
    startPage_->setOpenableKinds(
        {model::CatalogKind::Recording, model::CatalogKind::Sweep, model::CatalogKind::TileSweep});
    startPage_->setCatalog(model::findShippedRecordings());
    stack->addWidget(startPage_);

    viewsPage_ = new QWidget;
    auto* viewsPage = viewsPage_;
    viewsPage->setObjectName(QStringLiteral("viewsPage"));
    auto* layout = new QVBoxLayout(viewsPage);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    replayBanner_ = new QLabel(viewsPage);
    replayBanner_->setObjectName(QStringLiteral("replayBanner"));
    replayBanner_->setWordWrap(true);
    // The device name and file name come from the file: never read as HTML.
    replayBanner_->setTextFormat(Qt::PlainText);
    replayBanner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    replayBanner_->setContentsMargins(6, 3, 6, 3);
    replayBanner_->setAutoFillBackground(true);
    replayBanner_->setBackgroundRole(QPalette::AlternateBase);
    replayBanner_->setVisible(false);
    layout->addWidget(replayBanner_);
    layout->addWidget(views, 1);
    stack->addWidget(viewsPage);
    viewsPage->setVisible(false);

    connect(startPage_, &StartPage::openRecordingRequested, this, &MainWindow::openFromUser);
    connect(startPage_, &StartPage::openFileRequested, this, &MainWindow::openRecordingDialog);
    connect(startPage_, &StartPage::runRequested, this, [this] {
        // Without a usable GPU the page offers the CPU: say so to the panel, then run.
        if (!summary_.cudaUsable) {
            const int cpu = runPanel_->backendCombo()->findData(QStringLiteral("cpu"));
            if (cpu >= 0) runPanel_->backendCombo()->setCurrentIndex(cpu);
        }
        startRun();
    });
    connect(this, &MainWindow::recordingChanged, this, &MainWindow::updateReplayBanner);
    // Bringing a view or chart to the front (a menu, --show-tab, another part of the window)
    // shows the views; connected before the parts plugged in later, which lay out their tab.
    for (QTabWidget* tabs : {viewTabs_, chartTabs_})
        connect(tabs, &QTabWidget::currentChanged, this, &MainWindow::showViews);
    return viewStack_;
}

void MainWindow::setupDesktopHabits(QMenu* fileMenu, QAction* insertBefore) {
    recentFiles_ = new RecentFiles(settings_, this);
    QMenu* recent = new QMenu(tr("Open &recent"), fileMenu);
    recent->setObjectName(QStringLiteral("recentMenu"));
    fileMenu->insertMenu(insertBefore, recent);
    recentFiles_->attachTo(recent);
    connect(recentFiles_, &RecentFiles::openRequested, this, &MainWindow::openFromUser);
    QAction* compare = new QAction(tr("&Compare with a recording…"), fileMenu);
    compare->setObjectName(QStringLiteral("compareAction"));
    compare->setToolTip(
        tr("Show the recording or size sweep on screen beside another of its kind, on one "
           "scale, with the ratios per variant"));
    connect(compare, &QAction::triggered, this, &MainWindow::compareDialog);
    fileMenu->insertAction(insertBefore, compare);
    new FileDropFilter(this, [this](const QString& path) { openFromUser(path); });
}

bool MainWindow::startPageShown() const {
    return !startPage_->isHidden();
}

void MainWindow::showStartPage() {
    viewsPage_->setVisible(false);
    startPage_->setVisible(true);
}

void MainWindow::showViews() {
    startPage_->setVisible(false);
    viewsPage_->setVisible(true);
}

void MainWindow::showGpuOnStartPage() {
    startPage_->setGpu(summary_.cudaUsable, summary_.cudaDeviceName, summary_.cudaReason);
}

void MainWindow::updateReplayBanner() {
    const bool replay = recording_.replayed && !recording_.runs.empty();
    replayBanner_->setVisible(replay);
    if (!replay) return;
    QString text = model::replayLabel(recording_);
    text[0] = text[0].toUpper();
    if (!openFile_.isEmpty()) text += tr(" · %1").arg(QFileInfo(openFile_).fileName());
    replayBanner_->setText(text);
}

void MainWindow::noteOpenedFile(const QString& path) {
    openFile_ = path;
    recentFiles_->add(path);
    setWindowTitle(tr("%1 — FuseScope").arg(QFileInfo(path).fileName()));
    updateReplayBanner();
    showViews();
}

void MainWindow::openFromUser(const QString& path) {
    if (const QString error = openRecording(path); !error.isEmpty())
        QMessageBox::critical(this, tr("Cannot open file"), error);
}

void MainWindow::reportOpenErrorLater(const QString& error) {
    // A start from the file manager has no terminal: the window says it once it is shown.
    QTimer::singleShot(0, this, [this, error] {
        statusBar()->showMessage(error);
        QMessageBox::critical(this, tr("Cannot open file"), error);
    });
}

void MainWindow::compareDialog() {
    if (recording_.runs.empty() && !sweepTab_->hasSweep()) {
        QMessageBox::information(this, tr("Compare recordings"),
                                 tr("Open or run a recording or a size sweep first; Compare then "
                                    "opens a second one beside it."));
        return;
    }
    const QString directory = settings_->value(QStringLiteral("files/lastDirectory")).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with recording"), directory,
                                                      recordingFileFilter());
    if (path.isEmpty()) return;
    if (const QString error = compareWith(path); !error.isEmpty())
        QMessageBox::critical(this, tr("Cannot compare"), error);
}

QString MainWindow::compareWith(const QString& path) {
    // The other file's kind picks what it is compared with: the recording of runs or the size
    // sweep the window shows.
    const bool otherIsSweep = model::isSweepFile(path);
    const QString otherName = QFileInfo(path).fileName();
    const bool haveRuns = !recording_.runs.empty();
    const bool haveSweep = sweepTab_->hasSweep();
    if (!haveRuns && !haveSweep)
        return tr(
            "Open or run a recording or a size sweep first; Compare then opens a second one "
            "beside it.");
    using model::ComparedKind;
    const ComparedKind otherKind = otherIsSweep ? ComparedKind::SizeSweep : ComparedKind::Runs;
    if (otherIsSweep ? !haveSweep : !haveRuns)
        return model::compareKindsRefusal(
            otherIsSweep ? ComparedKind::Runs : ComparedKind::SizeSweep, otherKind, otherName);
    if (otherIsSweep) return compareSweepWith(path);
    Result<model::Recording> other = model::openRecording(path);
    if (!other) return QString::fromStdString(other.status().message());
    if (!compareWindow_) compareWindow_ = new CompareWindow(this);
    const QString shownName =
        openFile_.isEmpty() ? tr("the last run") : QFileInfo(openFile_).fileName();
    compareWindow_->setRecordings(recording_, shownName, *other, QFileInfo(path).fileName());
    compareWindow_->show();
    compareWindow_->raise();
    recentFiles_->add(path);
    return {};
}

QString MainWindow::compareSweepWith(const QString& path) {
    const Result<model::SweepFile> shown = sweepTab_->shownSweep();
    if (!shown) return QString::fromStdString(shown.status().message());
    const Result<model::SweepFile> other = model::loadSweepFile(path);
    if (!other) return QString::fromStdString(other.status().message());
    const Result<model::SweepComparison> comparison = model::compareSweeps(*shown, *other);
    if (!comparison) return QString::fromStdString(comparison.status().message());
    if (!compareWindow_) compareWindow_ = new CompareWindow(this);
    compareWindow_->setSweeps(*comparison, sweepTab_->shownSweepName(), QFileInfo(path).fileName());
    compareWindow_->show();
    compareWindow_->raise();
    recentFiles_->add(path);
    return {};
}

}  // namespace fusescope
