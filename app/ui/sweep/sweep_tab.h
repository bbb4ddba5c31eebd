#pragma once
// The "Size sweep" tab: its own small controls (variants of the current pipeline, from N / to N
// with the cache size marked, steps per octave, vector width; the backend comes from the run
// panel), Run sweep / Cancel with progress, the sweep chart growing point by point, and a table
// of the points. Opens and saves the same fusescope-sweep file as `fusescope-cli sweep`.
#include <QJsonObject>
#include <QWidget>
#include <map>
#include <optional>
#include <utility>

#include "model/sweep_chart_data.h"
#include "model/sweep_json.h"
#include "worker/run_command.h"
#include "worker/sweep_command.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace fusescope {

class RunController;
class SweepChart;

class SweepTab final : public QWidget {
    Q_OBJECT
  public:
    enum Column { Variant, N, Time, GBps, VsFit, Regime, Cache, Check, ColumnCount };

    // `controller` is not owned; the tab posts its sweeps through it.
    explicit SweepTab(RunController* controller, QWidget* parent = nullptr);

    // The run panel's pipeline and target (backend and GPU), followed by the main window.
    void setPipeline(const QString& name);
    const QString& pipeline() const { return pipeline_; }
    void setTarget(const Target& target);
    void setBackendSummary(const BackendSummary& summary);

    // Empty when the controls describe a sweep that can start; otherwise what is wrong.
    QString validationMessage() const;
    SweepCommand command() const;

    // Files of format fusescope-sweep. Empty on success, otherwise the reader's or writer's
    // message (one line naming the file).
    QString openSweepFile(const QString& path);
    QString saveSweepFile(const QString& path) const;
    bool hasSweep() const { return !document_.isEmpty(); }
    // Nothing shown (another file was opened); a sweep running is cancelled.
    void clearSweep();
    // The sweep shown, read back from what Save sweep would write (Compare takes it); an error
    // before any sweep. Its name: the file's, or "the last sweep" for one measured here.
    Result<model::SweepFile> shownSweep() const;
    QString shownSweepName() const;

    bool isSweeping() const { return sweeping_; }
    SweepChart* chart() const { return chart_; }
    QTableWidget* pointsTable() const { return table_; }
    QListWidget* variantList() const { return variants_; }
    QLineEdit* fromEdit() const { return from_; }
    QLineEdit* toEdit() const { return to_; }
    QSpinBox* stepsSpin() const { return steps_; }
    QComboBox* vectorCombo() const { return vector_; }
    QSpinBox* repeatsSpin() const { return repeats_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QLabel* statusLabel() const { return status_; }
    // The points table beside the chart (View > Show tables): hidden, the chart takes the width.
    void setPointsTableShown(bool shown);

  public slots:
    void startSweep();
    void cancelSweep();

  signals:
    void sweepEnded(bool ok, const QString& message);

  private:
    void onStarted(const QString& note);
    void onPoint(const SweepPointUpdate& update);
    void onFinished(const SweepOutcome& outcome);
    void endSweep(bool ok, const QString& message);
    void showData(const SweepChartData& shown);
    void fillTable();
    void updateCacheMark();
    void updateEnabled();
    bool cacheIsGpus() const;
    quint64 cacheBytes() const;
    QString cacheName() const;

    RunController* controller_ = nullptr;
    QString pipeline_;
    Target target_;
    BackendSummary summary_;
    QListWidget* variants_ = nullptr;
    QLineEdit* from_ = nullptr;
    QLineEdit* to_ = nullptr;
    QLabel* fromLabel_ = nullptr;  // "From N", "From M": the dimension the pipeline sweeps
    QLabel* toLabel_ = nullptr;
    QLabel* cacheMark_ = nullptr;
    QSpinBox* steps_ = nullptr;
    QComboBox* vector_ = nullptr;
    QSpinBox* repeats_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* badge_ = nullptr;
    SweepChart* chart_ = nullptr;
    QTableWidget* table_ = nullptr;
    QWidget* tableBox_ = nullptr;  // the table and its badge
    SweepChartData data_;
    QJsonObject document_;    // what Save sweep writes: the file opened or the sweep measured
    QString openedFileName_;  // the file document_ came from; empty for a sweep measured here
    // Whether each point's output matched the reference, by variant and N (the chart's data
    // carries no check).
    std::map<std::pair<QString, quint64>, bool> pointChecks_;
    bool sweeping_ = false;
};

}  // namespace fusescope
