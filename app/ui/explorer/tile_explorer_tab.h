#pragma once
// The "Tile explorer" tab: which run-time tunable kernel is explored (the lesson's fused kernel
// or the production fusion's gate_up kernel), the problem (preset, dimensions, dtype), a selector
// for each tile parameter that kernel declares, the resource report updating as the selection
// changes (the model at once, the compiled kernel's numbers from the worker, superseded while the
// user is still choosing), "Run this configuration", and a sweep over ranges of the parameters with
// progress, ETA and Cancel that fills the heatmap and the roofline as cells arrive. Without a
// GPU it says so, still shows the model's numbers for a GPU chosen from a table, and opens
// recorded tile sweeps (format fusescope-tiles).
#include <QElapsedTimer>
#include <QWidget>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/recording.h"
#include "model/tile_choices.h"
#include "ui/explorer/tile_sweep_view.h"
#include "worker/run_command.h"
#include "worker/tile_command.h"

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QProgressBar;
class QScrollArea;
class QSettings;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QVBoxLayout;

namespace fusescope {

struct PipelineSpec;
class RunController;
class TileHeatmap;
class TileRoofline;

class TileExplorerTab final : public QWidget {
    Q_OBJECT
  public:
    // `controller` is not owned; the tab posts its reports, runs and sweeps through it.
    explicit TileExplorerTab(RunController* controller, QWidget* parent = nullptr);

    void setBackendSummary(const BackendSummary& summary);
    // Where the choices (problem, tiles, ranges, repeats, heatmap and roofline choices) are
    // remembered: restored now, saved on every change. Not owned.
    void setSettings(QSettings* settings);
    void setTarget(const Target& target);
    bool liveAvailable() const;
    // Live, or the CPU backend chosen explicitly (the lesson kernel's CPU port is timed).
    bool canMeasure() const;

    // The configuration the selectors describe.
    tiles::TileConfiguration configuration() const;
    void setConfiguration(const tiles::TileConfiguration& configuration);
    // The grid the sweep ranges describe; empty `axes` when no range spans two values.
    tiles::TileSweepRequest sweepRequest() const;
    QString sweepValidationMessage() const;

    // A sweep to show: measured here or opened from a file (fusescope-tiles).
    void showSweep(const tiles::TileSweep& sweep, const QString& source);
    QString openTileSweepFile(const QString& path);
    // Nothing shown (another file was opened); a sweep running is cancelled.
    void clearSweep();
    QString saveTileSweepFile(const QString& path) const;
    const tiles::TileSweep& sweep() const { return sweep_; }
    bool hasSweep() const { return !sweep_.cells.empty(); }
    bool isSweeping() const { return sweeping_; }
    bool isRunningConfiguration() const { return runningOne_; }

    TileHeatmap* heatmap() const { return heatmap_; }
    TileRoofline* roofline() const { return roofline_; }
    QComboBox* kernelCombo() const { return kernel_; }
    QComboBox* presetCombo() const { return preset_; }
    QComboBox* dtypeCombo() const { return dtype_; }
    QComboBox* gpuCombo() const { return gpu_; }
    QComboBox* tileCombo(const std::string& tuning) const;
    QComboBox* rangeFromCombo(const std::string& tuning) const;
    QComboBox* rangeToCombo(const std::string& tuning) const;
    QComboBox* metricCombo() const { return metric_; }
    QComboBox* xAxisCombo() const { return xAxis_; }
    QComboBox* yAxisCombo() const { return yAxis_; }
    QComboBox* othersCombo() const { return others_; }
    QComboBox* followCombo() const { return follow_; }
    QSpinBox* repeatsSpin() const { return repeats_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* sweepButton() const { return sweepButton_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* saveButton() const { return save_; }
    QProgressBar* progressBar() const { return progress_; }
    QLabel* reportLabel() const { return report_; }
    QLabel* refusalLabel() const { return refusal_; }
    QLabel* resultLabel() const { return result_; }
    QLabel* statusLabel() const { return status_; }
    QLabel* gpuNoteLabel() const { return gpuNote_; }
    // The report shown now (the model's at once, then the worker's for the same selection).
    const std::optional<tiles::ResourceReport>& shownReport() const { return shownReport_; }
    int reportRequests() const { return reportRequests_; }

  public slots:
    void runConfiguration();
    void startSweep();
    void cancelSweep();

  signals:
    // A run to show in the results, the charts and the memory stage (a cell clicked, or the
    // configuration just run).
    void recordingChosen(const fusescope::model::Recording& recording);
    void sweepEnded(bool ok, const QString& message);

  private:
    // tile_explorer_controls.cpp: the problem, the tiles and the configuration they describe.
    QWidget* buildControls();
    QGroupBox* buildProblemBox(QWidget* column);
    QGroupBox* buildTilesBox(QWidget* column);
    // tile_explorer_report.cpp: the resource report and the run of one configuration.
    void addReportControls(QWidget* column, QVBoxLayout* layout);
    // tile_explorer_sweep.cpp: the sweep's controls, the heatmap and the roofline.
    QGroupBox* buildSweepBox(QWidget* column);
    QWidget* buildViews();
    // tile_explorer_files.cpp: Save… asks where.
    void saveWithDialog();
    void fillPresets();
    void applyPreset();
    void selectionChanged();
    void showModelReport();
    void showReport(const tiles::ResourceReport& report, const QString& note);
    void onReport(const TileReportOutcome& outcome);
    void onRunFinished(const TileRunOutcome& outcome);
    void onSweepStarted(const QString& note);
    void onSweepProgress(const TileSweepProgress& progress);
    void onCell(const tiles::TileCell& cell, int index);
    void onSweepFinished(const tiles::TileSweep& sweep, bool cancelled);
    void endSweep(bool ok, const QString& message);
    void refreshViews();
    void fillAxisChoices();
    // Shows the tiles and ranges of the chosen kernel's tunings and offers them on the axes.
    void applyVariant();
    void choosePipeline(const std::string& pipeline, const std::string& variant);
    void saveOnChange(QWidget* within);
    bool exploresTuning(const std::string& tuning) const;
    // The kernel selector's item for the configuration's pipeline and variant; -1 where none.
    int kernelIndex(const tiles::TileConfiguration& configuration) const;
    void updateEnabled();
    void updateSweepSize();
    void requestReport();
    void saveChoices() const;
    void restoreChoices();
    std::map<std::string, int> selectedTiles() const;
    std::optional<tiles::DeviceLimits> modelLimits() const;
    const PipelineSpec* pipeline() const;

    RunController* controller_ = nullptr;
    QSettings* settings_ = nullptr;
    BackendSummary summary_;
    bool backendsKnown_ = false;
    Target target_;
    std::string pipelineName_;
    std::string variantName_;

    QScrollArea* controlsScroll_ = nullptr;
    QLabel* gpuNote_ = nullptr;
    QComboBox* kernel_ = nullptr;
    QComboBox* preset_ = nullptr;
    std::map<std::string, QSpinBox*> dimensions_;
    QComboBox* dtype_ = nullptr;
    QComboBox* gpu_ = nullptr;
    std::vector<std::pair<std::string, QComboBox*>> tiles_;
    QFormLayout* tilesForm_ = nullptr;
    QFormLayout* sweepForm_ = nullptr;
    std::map<std::string, QWidget*> rangeRows_;
    QLabel* report_ = nullptr;
    QLabel* refusal_ = nullptr;
    QLabel* reportSource_ = nullptr;
    QPushButton* run_ = nullptr;
    QLabel* result_ = nullptr;
    std::vector<std::pair<std::string, std::pair<QComboBox*, QComboBox*>>> ranges_;
    QSpinBox* repeats_ = nullptr;
    QLabel* sweepSize_ = nullptr;
    QPushButton* sweepButton_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* save_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QTabWidget* views_ = nullptr;
    QComboBox* metric_ = nullptr;
    QComboBox* xAxis_ = nullptr;
    QComboBox* yAxis_ = nullptr;
    QComboBox* others_ = nullptr;
    QComboBox* follow_ = nullptr;
    TileHeatmap* heatmap_ = nullptr;
    TileRoofline* roofline_ = nullptr;

    tiles::TileSweep sweep_;
    QString sweepSource_;
    std::optional<tiles::ResourceReport> shownReport_;
    int reportRequests_ = 0;
    bool workerLive_ = false;  // a worker report came from a live GPU
    bool reportQueued_ = false;
    bool sweeping_ = false;
    bool runningOne_ = false;
    QElapsedTimer sweepClock_;
};

}  // namespace fusescope
