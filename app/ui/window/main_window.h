#pragma once
// The main window: the run panel on the left, the results (and, from other parts, the memory
// stage) at the top, the charts below. Views are fed plain recordings; the worker does the work.
#include <QMainWindow>
#include <QPointer>
#include <functional>
#include <optional>

#include "model/recording.h"
#include "ui/charts/log_scale.h"
#include "ui/window/appearance.h"
#include "worker/run_command.h"

class QAction;
class QCustomPlot;
class QLabel;
class QMenu;
class QScrollArea;
class QSettings;
class QSplitter;
class QTabWidget;
class QTableView;

namespace fusescope {

class ChartView;
class CpuSpeedsGate;
struct ExportPreset;
class CompareWindow;
class ElidedLabel;
class KernelResultsModel;
class RecentFiles;
class StartPage;
class MeasurementPanel;
class SweepTab;
class TileExplorerTab;
class RunController;
class RunPanel;
class VariantResultsModel;

class MainWindow final : public QMainWindow {
    Q_OBJECT
  public:
    // `settings` is not owned; without it the application's default QSettings is used.
    explicit MainWindow(QSettings* settings = nullptr, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Places for other parts of the program: the memory stage adds a tab to
    // viewTabs(), the live bandwidth chart and the sweep add tabs to chartTabs().
    QTabWidget* viewTabs() const { return viewTabs_; }
    QTabWidget* chartTabs() const { return chartTabs_; }

    RunPanel* runPanel() const { return runPanel_; }
    // The settings every part of the window remembers its choices in (never null).
    QSettings* settings() const { return settings_; }
    RunController* runController() const { return controller_; }
    // Waits, without blocking, for this CPU's speeds before a CPU run or estimate.
    CpuSpeedsGate* cpuSpeedsGate() const { return cpuSpeeds_; }
    SweepTab* sweepTab() const { return sweepTab_; }
    TileExplorerTab* tileExplorer() const { return tileExplorer_; }
    MeasurementPanel* measurementPanel() const { return measurementPanel_; }
    QList<ChartView*> charts() const { return charts_; }
    VariantResultsModel* variantModel() const { return variantModel_; }
    KernelResultsModel* kernelModel() const { return kernelModel_; }
    const model::Recording& recording() const { return recording_; }
    const BackendSummary& backendSummary() const { return summary_; }
    bool backendsKnown() const { return backendsKnown_; }
    bool isRunning() const;

    // Shows a recording in every view (results, charts, and the views others add).
    void setRecording(const model::Recording& recording);
    // While `held` says so (a lesson's live run for a question the class has not answered),
    // a run's results wait out of every view until showHeldRunResults().
    void setRunResultsHeld(std::function<bool()> held) { runResultsHeld_ = std::move(held); }
    bool runResultsHeld() const { return runResultsHeld_ && runResultsHeld_(); }
    void showHeldRunResults();
    // Empty on success, otherwise the loader's (or writer's) message. A sweep file
    // (fusescope-sweep) opens in the Size sweep tab instead, a tile sweep (fusescope-tiles) in the
    // Tile explorer.
    QString openRecording(const QString& path);
    QString saveRecording(const QString& path) const;
    // The run panel shows the pipeline, variants and problem of `recording` (one state).
    void showRecordedRequestInPanel(const model::Recording& recording);
    // What the run panel's shape, taken from a recording made elsewhere, costs on this CPU when
    // that is long: once the CPU's speeds are known, appended to `opened` in the run panel and
    // shown in the status bar; sets problemTooLongHere_.
    void noteRecordedShape(const model::Recording& recording, const QString& opened);

    void saveSettings();

    // The first view (main_window_desktop.cpp): what to do next, with the shipped recordings; it
    // gives way to the views when a run starts or a file opens.
    StartPage* startPage() const { return startPage_; }
    bool startPageShown() const;
    void showStartPage();
    void showViews();
    // "Replay of a run on NVIDIA H200, 2026-11-30 · file.json" over the views of a recording
    // opened from a file.
    QLabel* replayBanner() const { return replayBanner_; }
    RecentFiles* recentFiles() const { return recentFiles_; }
    // The file on screen (opened or saved last); empty for a live run.
    const QString& openFile() const { return openFile_; }
    // Opens `path` beside the recording on screen in the compare window: a size sweep beside the
    // Size sweep tab's sweep (of the same pipeline), a recording of runs beside the runs shown.
    // Empty on success, otherwise the loader's message or why the two cannot be compared.
    QString compareWith(const QString& path);
    CompareWindow* compareWindow() const { return compareWindow_; }
    // Opens a file the user chose (start page, recent files, a drop); errors in a message box.
    void openFromUser(const QString& path);
    // For a start with a file (file manager, command line): the error once the window shows.
    void reportOpenErrorLater(const QString& error);

    // View menu: the tables (Results tab, sweep points) shown or hidden, the presentation zoom
    // (1 = the system's text size) and the theme; each is remembered in settings().
    void setTablesShown(bool shown);
    bool tablesShown() const;
    void setZoom(double zoom);
    double zoom() const { return zoom_; }
    void setTheme(Theme theme);
    Theme theme() const { return theme_; }
    // The presentation layout (View menu, F5, --presentation): the run panel folds away, the
    // view or chart tabs chosen last fill the height (the others keep their tab bar), and the
    // views' text, charts and tables included, is at least kPresentationTextPixels high and
    // follows the zoom. Remembered in settings() unless `remember` is false (--presentation).
    void setPresentation(bool presentation, bool remember = true);
    bool presentation() const { return presentation_; }
    // The run charts' value axes: by the spread of the values, linear or logarithmic (View
    // menu); remembered in settings().
    void setValueScale(ValueScale scale);
    ValueScale valueScale() const { return valueScale_; }
    // In the presentation layout, `shown` (viewTabs() or chartTabs()) fills the views' height and
    // the other keeps its tab bar; a click on a tab or a tab brought up does this.
    void presentTabs(QTabWidget* shown);

  public slots:
    void startRun();  // from the run panel's choices
    // Runs `command` as Run does: once this CPU's speeds are known, and where the run is long on
    // the CPU, after the user said yes to it (the expression lab's Run).
    void startAfterAsking(const RunCommand& command);
    void startCommand(const RunCommand& command);  // headless and tests: exactly this command
    void cancelRun();

  signals:
    void recordingChanged(const fusescope::model::Recording& recording);
    // View > Value axes: for the views beside the run charts (the bandwidth over time).
    void valueScaleChanged(fusescope::ValueScale scale);
    // A finished variant while a run is in progress (for views that fill in as results come).
    void runVariantFinished(const fusescope::model::VariantResult& run);
    void runStateChanged(bool running);
    // The run ended: finished (ok), failed or cancelled (message says which).
    void runEnded(bool ok, const QString& message);
    void backendsProbed();

  protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void buildMenus();
    void fitRunPanelWidth();
    // The views' font: the application's, or in the presentation layout at least its size.
    void applyViewsFont();
    // The Results tab gives the variants table room for every row, the kernels what is left.
    void fitVariantRows();
    void restoreSettings();
    void onBackendsProbed(const BackendSummary& summary);
    void onVariantFinished(const model::VariantResult& run);
    void onRunFinished(const model::Recording& recording);
    void endRun(bool ok, const QString& message);
    // The worker took or ended a job: while it holds one the run panel did not start (a size or
    // tile sweep, a tile run), Run waits and Cancel stops that job; after it, both are idle.
    void followWorker();
    // "tile sweep", "size sweep", "tile run": the job the worker holds that the panel did not
    // start; empty when idle or running the panel's own run.
    QString jobElsewhere() const;
    void showRecordingInViews();
    // The variants the shown recording left out, comma-separated ("" when none).
    QString variantsNotRunNames() const;
    // The kinds of file a window opens; the views of the other kinds are emptied on an open.
    enum class OpenedKind { Recording, SizeSweep, TileSweep };
    void showOnlyTheOpenedKind(OpenedKind kind);
    void openRecordingDialog();
    void saveRecordingDialog();
    void saveSweepDialog();
    void exportChartDialog(QCustomPlot* chart, const ExportPreset& preset);
    void showAbout();
    void showSelfTest();
    // main_window_desktop.cpp
    QWidget* makeViewStack(QWidget* views);
    void setupDesktopHabits(QMenu* fileMenu, QAction* insertBefore);
    void showGpuOnStartPage();
    void updateReplayBanner();
    void noteOpenedFile(const QString& path);
    void compareDialog();
    QString compareSweepWith(const QString& path);

    QSettings* settings_ = nullptr;
    std::unique_ptr<QSettings> ownedSettings_;
    RunController* controller_ = nullptr;
    CpuSpeedsGate* cpuSpeeds_ = nullptr;
    RunPanel* runPanel_ = nullptr;
    QTabWidget* viewTabs_ = nullptr;
    QTabWidget* chartTabs_ = nullptr;
    QSplitter* mainSplitter_ = nullptr;
    QWidget* resultsTab_ = nullptr;
    QScrollArea* panelScroll_ = nullptr;
    QAction* showTablesAction_ = nullptr;
    QList<QAction*> themeActions_;
    double zoom_ = 1.0;
    Theme theme_ = Theme::System;
    QAction* presentationAction_ = nullptr;
    bool presentation_ = false;
    QList<int> panelSizesBeforePresentation_;
    QList<int> viewSizesBeforePresentation_;
    QTabWidget* presentedTabs_ = nullptr;
    QList<QAction*> valueScaleActions_;
    ValueScale valueScale_ = ValueScale::Automatic;
    QSplitter* rightSplitter_ = nullptr;
    QSplitter* chartSplitter_ = nullptr;
    QTableView* variantTable_ = nullptr;
    QTableView* kernelTable_ = nullptr;
    VariantResultsModel* variantModel_ = nullptr;
    KernelResultsModel* kernelModel_ = nullptr;
    ElidedLabel* fusionVerdict_ = nullptr;
    QLabel* variantsTitle_ = nullptr;  // names the variants a run left out
    QList<ChartView*> charts_;
    SweepTab* sweepTab_ = nullptr;
    TileExplorerTab* tileExplorer_ = nullptr;
    MeasurementPanel* measurementPanel_ = nullptr;
    QWidget* viewStack_ = nullptr;  // the start page or the views, one shown
    QWidget* viewsPage_ = nullptr;
    StartPage* startPage_ = nullptr;
    QLabel* replayBanner_ = nullptr;
    RecentFiles* recentFiles_ = nullptr;
    CompareWindow* compareWindow_ = nullptr;
    QString openFile_;
    model::Recording recording_;
    BackendSummary summary_;
    // A recording's problem, set in the run panel, too long to run on this CPU: not kept for the
    // next start while the panel still holds it.
    std::optional<Problem> problemTooLongHere_;
    // Run was clicked and waits for this CPU's speeds (CpuSpeedsGate) before it starts.
    bool runWaitsForCpuSpeeds_ = false;
    bool backendsKnown_ = false;
    QString runStartedNote_;
    QString shownJobElsewhere_;      // the job the run panel shows as holding the worker
    QString jobElsewhereEndedText_;  // how that job ended, in its tab's words
    qint64 runStartedMs_ = 0;
    std::function<bool()> runResultsHeld_;
    std::optional<model::Recording> heldRecording_;
};

}  // namespace fusescope
