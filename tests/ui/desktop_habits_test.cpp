// The window as a desktop program: the start page (first view, no usable GPU said with the
// reason, shipped recordings one click away), the replay banner and the title, recent files,
// drag and drop, a file on the command line, the GPU picker and comparing two recordings.
// Offscreen; files and settings only in a temporary folder.
#include <optional>

#include <QComboBox>
#include <QCommandLineParser>
#include <QCommandLinkButton>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUrl>
#include <QtTest>

#include "model/comparison.h"
#include "model/recording_catalog.h"
#include "model/recording_description.h"
#include "model/recording_json.h"
#include "support/window_test_case.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/plot.h"
#include "ui/compare/compare_window.h"
#include "ui/results/results_model.h"
#include "ui/run/run_choices.h"
#include "ui/run/run_panel.h"
#include "ui/stage/memory_stage_view.h"
#include "ui/window/headless.h"
#include "ui/window/main_window.h"
#include "ui/window/recent_files.h"
#include "ui/window/start_page.h"

using namespace fusescope;

namespace {

constexpr int kWaitMs = 120000;

QString dataFile(const char* name) {
    return QStringLiteral(FUSESCOPE_TEST_DATA_DIR "/") + QString::fromLatin1(name);
}

// The widget's horizontal extent lies inside `page`'s (nothing cut at the right edge).
bool fitsAcross(const QWidget* widget, const QWidget* page) {
    const QPoint left = widget->mapTo(page, QPoint(0, 0));
    return left.x() >= 0 && left.x() + widget->width() <= page->width();
}

}  // namespace

class DesktopHabitsTest : public testsupport::WindowTestCase {
    Q_OBJECT
  private slots:
    void startPageIsTheFirstViewAndSaysWhyThereIsNoGpu();
    void theReasonIsShortAndWholeOnDemand();
    void shippedRecordingOpensWithOneClickAsAReplay();
    void runFromTheStartPageShowsTheViews();
    void startPageFitsSmallAndLargeScreens();
    void kindsTheWindowDoesNotOpenAreLeftOff();
    void aShippedTileSweepOpensInTheTileExplorer();
    void recentFilesAreNewestFirstBoundedAndPruned();
    void recentMenuOpensAFile();
    void aDroppedRecordingOpens();
    void aFileOnTheCommandLineIsOpened();
    void compareShowsRatiosChartsOnOneScaleAndBothOnTheStage();
    void gpuPickerCarriesTheChosenGpuIntoTheCommand();
    void theChosenGpuIsRememberedAndFallsBackWithANoteWhenGone();

  private:
    QString copyData(const char* name, const QString& as = {});
};

QString DesktopHabitsTest::copyData(const char* name, const QString& as) {
    const QString target = folder_->filePath(as.isEmpty() ? QString::fromLatin1(name) : as);
    QFile::remove(target);
    [&] { QVERIFY(QFile::copy(dataFile(name), target)); }();
    return target;
}

void DesktopHabitsTest::startPageIsTheFirstViewAndSaysWhyThereIsNoGpu() {
    MainWindow window(folder_->settings());
    QSignalSpy probed(&window, &MainWindow::backendsProbed);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.startPageShown());
    // No empty charts: the views wait behind the start page.
    for (ChartView* chart : window.charts()) QVERIFY(!chart->isVisible());
    if (!window.backendsKnown()) QVERIFY(probed.wait(30000));
    const BackendSummary& summary = window.backendSummary();
    StartPage* page = window.startPage();
    if (summary.cudaUsable) {
        QCOMPARE(page->headline()->text(),
                 QStringLiteral("GPU ready: %1").arg(summary.cudaDeviceName));
        return;
    }
    QCOMPARE(page->headline()->text(), QStringLiteral("No usable GPU on this machine"));
    QVERIFY(!summary.cudaReason.isEmpty());
    // The reason in full only on demand.
    QVERIFY(!page->details()->isVisible());
    QVERIFY(page->detailsButton()->isVisible());
    QTest::mouseClick(page->detailsButton(), Qt::LeftButton);
    QVERIFY(page->details()->isVisible());
    QVERIFY2(page->details()->text().contains(summary.cudaReason),
             qPrintable(page->details()->text()));
    QCOMPARE(page->runButton()->text(), QStringLiteral("Run on the CPU"));
    // Said once, on the start page: the run panel says what it means, not the reason again.
    for (QLabel* label : window.findChildren<QLabel*>())
        if (!page->isAncestorOf(label) && label->isVisible())
            QVERIFY2(!label->text().contains(summary.cudaReason), qPrintable(label->text()));
}

// The driver's whole message is long; the page says the part a person acts on, the rest on
// demand.
void DesktopHabitsTest::theReasonIsShortAndWholeOnDemand() {
    StartPage page;
    const QString reason = QStringLiteral(
        "no usable NVIDIA GPU: cudaErrorInsufficientDriver (CUDA driver version is insufficient "
        "for CUDA runtime version); this FuseScope uses CUDA 13.0, which needs NVIDIA driver 580 "
        "or newer; no NVIDIA driver is installed or loaded");
    page.setGpu(false, QString(), reason);
    QVERIFY2(page.summary()->text().startsWith(QStringLiteral(
                 "FuseScope cannot run kernels on a GPU here: no NVIDIA driver is installed or "
                 "loaded.")),
             qPrintable(page.summary()->text()));
    QVERIFY(!page.summary()->text().contains(QStringLiteral("cudaError")));
    QVERIFY(page.details()->text().startsWith(reason));
    page.setGpu(false, QString(),
                QStringLiteral("this FuseScope was built without the CUDA toolkit"));
    QVERIFY(page.summary()->text().contains(
        QStringLiteral("here: this FuseScope was built without the CUDA toolkit.")));
    page.setGpu(true, QStringLiteral("NVIDIA H200"), QString());
    QCOMPARE(page.headline()->text(), QStringLiteral("GPU ready: NVIDIA H200"));
    QCOMPARE(page.runButton()->text(), QStringLiteral("Run on the GPU"));
    QVERIFY(!page.detailsButton()->isVisibleTo(&page));
}

void DesktopHabitsTest::shippedRecordingOpensWithOneClickAsAReplay() {
    const QString folder = folder_->filePath(QStringLiteral("recordings"));
    QVERIFY(QDir().mkpath(folder));
    const QString path = folder + QStringLiteral("/swiglu-cpu.fusescope.json");
    QVERIFY(QFile::copy(dataFile("swiglu-cpu.fusescope.json"), path));
    const model::RecordingCatalog catalog = model::findRecordings({folder});
    QCOMPARE(catalog.entries.size(), 1);

    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.startPage()->setCatalog(catalog);
    const QList<QCommandLinkButton*> buttons = window.startPage()->recordingButtons();
    QCOMPARE(buttons.size(), 1);
    QCOMPARE(buttons.front()->text(), catalog.entries.front().title);
    QCOMPARE(buttons.front()->description(), catalog.entries.front().description);
    QTest::mouseClick(buttons.front(), Qt::LeftButton);

    const Result<model::Recording> expected = model::loadRecording(path);
    QVERIFY(expected);
    QVERIFY(!window.startPageShown());
    QCOMPARE(window.recording().runs.size(), expected->runs.size());
    QVERIFY(window.recording().replayed);
    QCOMPARE(window.variantModel()->rowCount(), static_cast<int>(expected->runs.size()));
    for (ChartView* chart : window.charts()) QVERIFY(chart->isVisible());
    QVERIFY(window.replayBanner()->isVisible());
    const QString date = expected->createdAt.left(10);
    QCOMPARE(window.replayBanner()->text(),
             QStringLiteral("Replay of a run on %1, %2 · swiglu-cpu.fusescope.json")
                 .arg(QString::fromStdString(expected->device.name), date));
    QVERIFY2(window.windowTitle().startsWith(QStringLiteral("swiglu-cpu.fusescope.json")),
             qPrintable(window.windowTitle()));
    QCOMPARE(window.recentFiles()->files(), QStringList{QFileInfo(path).absoluteFilePath()});
    // Back to the start page from the View menu; a live run hides the banner.
    window.showStartPage();
    QVERIFY(window.startPageShown());
}

void DesktopHabitsTest::runFromTheStartPageShowsTheViews() {
    MainWindow window(folder_->settings());
    QSignalSpy probed(&window, &MainWindow::backendsProbed);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    if (!window.backendsKnown()) QVERIFY(probed.wait(30000));
    if (window.backendSummary().cudaUsable) QSKIP("a GPU is usable: the page offers it instead");
    window.runPanel()->elementCountEdit()->setText(QStringLiteral("4096"));
    window.runPanel()->repeatsSpin()->setValue(2);
    QSignalSpy ended(&window, &MainWindow::runEnded);
    QTest::mouseClick(window.startPage()->runButton(), Qt::LeftButton);
    QVERIFY(!window.startPageShown());
    QCOMPARE(window.runPanel()->backendCombo()->currentData().toString(), QStringLiteral("cpu"));
    QVERIFY(ended.wait(kWaitMs));
    QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));
    QCOMPARE(window.recording().device.backend, fusescope::BackendKind::Cpu);
    QVERIFY(!window.replayBanner()->isVisible());
    QCOMPARE(window.windowTitle(), QStringLiteral("FuseScope"));
}

void DesktopHabitsTest::startPageFitsSmallAndLargeScreens() {
    const QString folder = folder_->filePath(QStringLiteral("recordings"));
    QVERIFY(QDir().mkpath(folder));
    for (const char* name :
         {"swiglu-cpu.fusescope.json", "affine-cpu.fusescope.json", "affine-sweep-cpu.json"})
        QVERIFY(QFile::copy(dataFile(name), folder + QLatin1Char('/') + QLatin1String(name)));
    MainWindow window(folder_->settings());
    window.startPage()->setCatalog(model::findRecordings({folder}));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // 1280x720 and 1920x1080 screens at 150 %: the window's logical sizes.
    for (const QSize size : {QSize(853, 480), QSize(1280, 720)}) {
        window.resize(size);
        QTest::qWait(50);
        StartPage* page = window.startPage();
        QVERIFY(page->isVisible());
        QWidget* content = page->headline()->parentWidget();
        QVERIFY2(content->width() <= page->width(), "the start page scrolls sideways");
        QList<QWidget*> parts{page->headline(), page->runButton(), page->openButton()};
        for (QCommandLinkButton* button : page->recordingButtons()) parts << button;
        if (page->detailsButton()->isVisible()) parts << page->detailsButton();
        for (QWidget* part : parts)
            QVERIFY2(fitsAcross(part, page), qPrintable(QStringLiteral("%1 cut at %2x%3")
                                                            .arg(part->objectName())
                                                            .arg(size.width())
                                                            .arg(size.height())));
        // A wrapped description is as tall as its text needs.
        for (QCommandLinkButton* button : page->recordingButtons())
            QVERIFY(button->height() >= button->heightForWidth(button->width()));
    }
}

// A tile sweep opens in the tile explorer, not in this window: the page lists only what a click
// can open, and says why the list is empty.
void DesktopHabitsTest::kindsTheWindowDoesNotOpenAreLeftOff() {
    const QString folder = folder_->filePath(QStringLiteral("recordings"));
    QVERIFY(QDir().mkpath(folder));
    QFile tiles(folder + QStringLiteral("/tiles.json"));
    QVERIFY(tiles.open(QIODevice::WriteOnly));
    tiles.write(R"({"format": "fusescope-other-tool", "description": "not for this window"})");
    tiles.close();
    StartPage page;
    const model::RecordingCatalog catalog = model::findRecordings({folder});
    QCOMPARE(catalog.entries.size(), 1);
    QCOMPARE(catalog.entries.front().kind, model::CatalogKind::Other);
    page.setCatalog(catalog);
    QVERIFY(page.recordingButtons().isEmpty());
    const QList<QLabel*> labels = page.findChildren<QLabel*>();
    const bool said = std::any_of(labels.begin(), labels.end(), [&](const QLabel* label) {
        return label->isVisibleTo(&page) &&
               label->text().startsWith(QStringLiteral("No recording in ")) &&
               label->text().contains(QDir::toNativeSeparators(catalog.folder));
    });
    QVERIFY(said);
    page.setOpenableKinds({model::CatalogKind::Other});
    page.setCatalog(catalog);
    QCOMPARE(page.recordingButtons().size(), 1);
}

void DesktopHabitsTest::aShippedTileSweepOpensInTheTileExplorer() {
    const model::RecordingCatalog shipped =
        model::findRecordings({QStringLiteral(FUSESCOPE_SHIPPED_DIR)});
    QString tilePath;
    for (const model::CatalogEntry& entry : shipped.entries)
        if (entry.kind == model::CatalogKind::TileSweep && entry.error.isEmpty())
            tilePath = entry.path;
    if (tilePath.isEmpty()) QSKIP("no tile sweep ships");
    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.startPage()->setCatalog(shipped);
    QCommandLinkButton* button = nullptr;
    for (QCommandLinkButton* candidate : window.startPage()->recordingButtons())
        if (candidate->toolTip().startsWith(QDir::toNativeSeparators(tilePath))) button = candidate;
    QVERIFY2(button, "the shipped tile sweep is not on the start page");
    QVERIFY(button->text().startsWith(QStringLiteral("Tile sweep of ")));
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(!window.startPageShown());
    QCOMPARE(window.openFile(), tilePath);
    QVERIFY(window.windowTitle().startsWith(QFileInfo(tilePath).fileName()));
    QCOMPARE(window.recentFiles()->files(), QStringList{QFileInfo(tilePath).absoluteFilePath()});
    QVERIFY(window.chartTabs()
                ->tabText(window.chartTabs()->currentIndex())
                .contains(QStringLiteral("Tile")));
}

void DesktopHabitsTest::recentFilesAreNewestFirstBoundedAndPruned() {
    RecentFiles recent(folder_->settings());
    QStringList paths;
    for (int index = 0; index < RecentFiles::kMaxFiles + 2; ++index) {
        const QString path = folder_->filePath(QStringLiteral("file%1.json").arg(index));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        paths << path;
    }
    recent.add(paths[0]);
    recent.add(paths[1]);
    recent.add(paths[0]);
    QCOMPARE(recent.files(), (QStringList{paths[0], paths[1]}));
    for (const QString& path : paths) recent.add(path);
    QStringList newestFirst = paths;
    std::reverse(newestFirst.begin(), newestFirst.end());
    QCOMPARE(recent.files(), newestFirst.mid(0, RecentFiles::kMaxFiles));
    // A file that is gone leaves the list, and the settings.
    QVERIFY(QFile::remove(paths.last()));
    QCOMPARE(recent.files(), newestFirst.mid(1, RecentFiles::kMaxFiles - 1));
    QCOMPARE(folder_->settings()->value(QStringLiteral("files/recent")).toStringList(),
             newestFirst.mid(1, RecentFiles::kMaxFiles - 1));
    // Remembered across windows (the settings file).
    RecentFiles again(folder_->settings());
    QCOMPARE(again.files().size(), RecentFiles::kMaxFiles - 1);
    again.clear();
    QVERIFY(recent.files().isEmpty());
}

void DesktopHabitsTest::recentMenuOpensAFile() {
    const QString path = copyData("affine-cpu.fusescope.json");
    MainWindow window(folder_->settings());
    window.recentFiles()->add(path);
    QMenu* menu = window.findChild<QMenu*>(QStringLiteral("recentMenu"));
    QVERIFY(menu);
    emit menu->aboutToShow();
    QList<QAction*> actions = menu->actions();
    QVERIFY(actions.size() >= 2);
    QCOMPARE(actions.front()->text(), QStringLiteral("&1 affine-cpu.fusescope.json"));
    actions.front()->trigger();
    QCOMPARE(window.openFile(), path);
    QCOMPARE(window.recording().runs.size(), 2);
    // Gone from disk: gone from the menu.
    QVERIFY(QFile::remove(path));
    emit menu->aboutToShow();
    QCOMPARE(menu->actions().size(), 1);
    QVERIFY(!menu->actions().front()->isEnabled());
}

void DesktopHabitsTest::aDroppedRecordingOpens() {
    const QString path = copyData("swiglu-cpu.fusescope.json");
    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QMimeData two;
    two.setUrls({QUrl::fromLocalFile(path), QUrl::fromLocalFile(path)});
    QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &two, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &refused);
    QVERIFY(!refused.isAccepted());

    QMimeData one;
    one.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &one, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &one, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    QVERIFY(drop.isAccepted());
    QCOMPARE(window.openFile(), path);
    QCOMPARE(window.recording().runs.size(), 3);
    QVERIFY(window.windowTitle().contains(QStringLiteral("swiglu-cpu.fusescope.json")));
}

void DesktopHabitsTest::aFileOnTheCommandLineIsOpened() {
    const auto parse = [](const QStringList& arguments, QString* error) {
        QCommandLineParser parser;
        addLaunchOptions(parser);
        [&] { QVERIFY(parser.parse(QStringList{QStringLiteral("fusescope")} + arguments)); }();
        return readLaunchOptions(parser, error);
    };
    QString error;
    const LaunchOptions file = parse({QStringLiteral("/tmp/x/run.fusescope.json")}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(file.openPath, QStringLiteral("/tmp/x/run.fusescope.json"));
    QVERIFY(!file.headless());
    parse({QStringLiteral("a.json"), QStringLiteral("b.json")}, &error);
    QVERIFY2(error.contains(QStringLiteral("one file")), qPrintable(error));
    parse({QStringLiteral("--open"), QStringLiteral("a.json"), QStringLiteral("b.json")}, &error);
    QVERIFY2(error.contains(QStringLiteral("one file")), qPrintable(error));
}

void DesktopHabitsTest::compareShowsRatiosChartsOnOneScaleAndBothOnTheStage() {
    const QString pathA = copyData("swiglu-cpu.fusescope.json");
    Result<model::Recording> b = model::loadRecording(pathA);
    QVERIFY(b);
    b->device.name = "Other machine";
    for (model::VariantResult& run : b->runs) run.timeMs /= 100.0;  // a far faster machine
    const QString pathB = folder_->filePath(QStringLiteral("other.fusescope.json"));
    QVERIFY(model::saveRecording(*b, pathB));

    MainWindow window(folder_->settings());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openRecording(pathA).isEmpty());
    QVERIFY(window.compareWith(folder_->filePath(QStringLiteral("missing.json")))
                .contains(QStringLiteral("missing.json")));
    QVERIFY(window.compareWith(pathB).isEmpty());
    CompareWindow* compare = window.compareWindow();
    QVERIFY(compare && compare->isVisible());
    const model::RecordingComparison expected =
        model::compareRecordings(window.recording(), *model::loadRecording(pathB));
    QCOMPARE(compare->ratioTable()->rowCount(), 3);
    for (int row = 0; row < 3; ++row) {
        QCOMPARE(compare->ratioTable()->item(row, 0)->text(), expected.variants[row].variant);
        QCOMPARE(compare->ratioTable()->item(row, 3)->text(),
                 model::formatRatio(expected.variants[row].timeRatio()));
        QVERIFY(compare->ratioTable()->item(row, 3)->text().startsWith(QStringLiteral("0.01")));
        QCOMPARE(compare->ratioTable()->item(row, 6)->text(), QStringLiteral("1.00x"));
    }
    // One scale for both: both bar sets on the one value axis, logarithmic for a 100x spread.
    QCustomPlot* time = compare->timeChart();
    QCOMPARE(time->plottableCount(), 2);
    QCOMPARE(time->plottable(0)->valueAxis(), time->plottable(1)->valueAxis());
    QCOMPARE(time->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(compare->bandwidthChart()->plottableCount(), 2);
    // The stage plays the same variant of both, side by side.
    QCOMPARE(compare->stageView()->paneCount(), 2);
    compare->variantPicker()->setCurrentIndex(2);
    QCOMPARE(compare->stageView()->paneCount(), 2);
    QVERIFY(compare->windowTitle().contains(QStringLiteral("other.fusescope.json")));
}

void DesktopHabitsTest::gpuPickerCarriesTheChosenGpuIntoTheCommand() {
    RunPanel panel;
    BackendSummary twoGpus;
    twoGpus.cudaBuilt = true;
    twoGpus.cudaUsable = true;
    twoGpus.cudaDeviceName = QStringLiteral("NVIDIA H200");
    twoGpus.cudaDevices = {QStringLiteral("NVIDIA H200"), QStringLiteral("NVIDIA H200")};
    panel.setBackendSummary(twoGpus);
    QCOMPARE(panel.deviceCombo()->count(), 2);
    QCOMPARE(panel.deviceCombo()->itemText(1), QStringLiteral("GPU 1: NVIDIA H200"));
    panel.backendCombo()->setCurrentIndex(panel.backendCombo()->findData(QStringLiteral("cuda")));
    panel.deviceCombo()->setCurrentIndex(1);
    QCOMPARE(panel.command().request.target.cudaDevice, std::optional<int>(1));
    // The panel shows a command's GPU, so Run repeats it.
    RunCommand command = panel.command();
    command.request.target.cudaDevice = 0;
    panel.setCommand(command);
    QCOMPARE(panel.deviceCombo()->currentIndex(), 0);
    // The CPU backend has no GPU to choose; without a usable GPU there is no picker.
    panel.backendCombo()->setCurrentIndex(panel.backendCombo()->findData(QStringLiteral("cpu")));
    QVERIFY(!panel.command().request.target.cudaDevice.has_value());
    BackendSummary none;
    none.cudaReason = QStringLiteral("no usable NVIDIA GPU");
    panel.setBackendSummary(none);
    panel.backendCombo()->setCurrentIndex(panel.backendCombo()->findData(QStringLiteral("auto")));
    QCOMPARE(panel.deviceCombo()->count(), 0);
    QVERIFY(!panel.command().request.target.cudaDevice.has_value());
}

void DesktopHabitsTest::theChosenGpuIsRememberedAndFallsBackWithANoteWhenGone() {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    BackendSummary twoGpus;
    twoGpus.cudaBuilt = true;
    twoGpus.cudaUsable = true;
    twoGpus.cudaDeviceName = QStringLiteral("NVIDIA H200");
    twoGpus.cudaDevices = {QStringLiteral("NVIDIA H200"), QStringLiteral("NVIDIA H200")};
    {
        // A session on the two-GPU host: GPU 1 is chosen, and saved as the window saves.
        RunPanel panel;
        panel.setBackendSummary(twoGpus);
        panel.deviceCombo()->setCurrentIndex(1);
        RunCommand choices = panel.command();
        choices.request.target.cudaDevice = panel.rememberedDevice();
        saveRunChoices(settings, choices);
    }
    QCOMPARE(loadRunChoices(settings).request.target.cudaDevice, std::optional<int>(1));
    {
        // The next session restores the choices before the worker has listed the GPUs.
        RunPanel panel;
        panel.setCommand(loadRunChoices(settings));
        panel.setBackendSummary(twoGpus);
        QCOMPARE(panel.deviceCombo()->currentIndex(), 1);
        QVERIFY2(!panel.backendNote().contains("not present"), qPrintable(panel.backendNote()));
    }
    {
        // GPU 1 is gone (CUDA_VISIBLE_DEVICES=0, or another host): GPU 0 runs, the note says so,
        // and the choice is kept for when the GPU is back.
        RunPanel panel;
        panel.setCommand(loadRunChoices(settings));
        BackendSummary oneGpu = twoGpus;
        oneGpu.cudaDevices = {QStringLiteral("NVIDIA H200")};
        panel.setBackendSummary(oneGpu);
        QCOMPARE(panel.deviceCombo()->currentIndex(), 0);
        QVERIFY2(panel.backendNote().contains("GPU 1, chosen last time, is not present"),
                 qPrintable(panel.backendNote()));
        QCOMPARE(panel.command().request.target.cudaDevice, std::optional<int>(0));
        QCOMPARE(panel.rememberedDevice(), std::optional<int>(1));
        // Picking a GPU makes it the new choice.
        panel.deviceCombo()->activated(0);
        QCOMPARE(panel.rememberedDevice(), std::optional<int>(0));
    }
    {
        // No usable GPU at all: the CPU runs, and the note names the missing GPU.
        RunPanel panel;
        panel.setCommand(loadRunChoices(settings));
        BackendSummary none;
        none.cudaReason = QStringLiteral("no usable NVIDIA GPU: cudaErrorNoDevice");
        panel.setBackendSummary(none);
        QCOMPARE(panel.deviceCombo()->count(), 0);
        QVERIFY2(panel.backendNote().contains("GPU 1, chosen last time, is not present"),
                 qPrintable(panel.backendNote()));
        QCOMPARE(panel.rememberedDevice(), std::optional<int>(1));
    }
    // A damaged setting is ignored.
    settings.setValue(QStringLiteral("run/cudaDevice"), QStringLiteral("first"));
    QVERIFY(!loadRunChoices(settings).request.target.cudaDevice.has_value());
    settings.setValue(QStringLiteral("run/cudaDevice"), -3);
    QVERIFY(!loadRunChoices(settings).request.target.cudaDevice.has_value());
}

QTEST_MAIN(DesktopHabitsTest)
#include "desktop_habits_test.moc"
