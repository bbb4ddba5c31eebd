#pragma once
// Two recordings side by side: the ratios per variant (time, bytes, GB/s), the time and the
// bandwidth of both on one chart each (one scale), and the memory stage playing a variant of
// both on one time scale. Fed two recordings; the comparison itself is model::compareRecordings.
// Or two size sweeps of one pipeline (model::compareSweeps): the ratios per variant and N, and
// one sweep chart of both.
#include <QWidget>

#include "model/comparison.h"
#include "model/recording.h"
#include "model/sweep_comparison.h"

class QComboBox;
class QLabel;
class QStackedWidget;
class QTableWidget;
class QCustomPlot;

namespace fusescope {

class MemoryStageView;
class SweepCompareView;

class CompareWindow final : public QWidget {
    Q_OBJECT
  public:
    explicit CompareWindow(QWidget* parent = nullptr);

    // `nameA` and `nameB` say where each came from (a file name, "the last run").
    void setRecordings(const model::Recording& a, const QString& nameA, const model::Recording& b,
                       const QString& nameB);

    // Two size sweeps of one pipeline, compared by model::compareSweeps.
    void setSweeps(const model::SweepComparison& comparison, const QString& nameA,
                   const QString& nameB);
    bool showsSweeps() const;

    const model::RecordingComparison& comparison() const { return comparison_; }
    const model::SweepComparison& sweepComparison() const { return sweepComparison_; }
    SweepCompareView* sweepView() const { return sweepView_; }
    QLabel* header() const { return header_; }
    QTableWidget* ratioTable() const { return table_; }
    QCustomPlot* timeChart() const { return timeChart_; }
    QCustomPlot* bandwidthChart() const { return bandwidthChart_; }
    MemoryStageView* stageView() const { return stage_; }
    QComboBox* variantPicker() const { return variant_; }

  private:
    void fillTable();
    void fillChart(QCustomPlot* chart, const QString& title, bool time);
    void showVariantOnStage(int row);
    // The notes under the header (hidden when there are none) and the window's title, for runs
    // and sweeps alike.
    void showNotes(const QStringList& notes, const QString& nameA, const QString& nameB);

    model::Recording a_;
    model::Recording b_;
    model::RecordingComparison comparison_;
    model::SweepComparison sweepComparison_;
    QStackedWidget* pages_ = nullptr;
    QWidget* runsPage_ = nullptr;
    SweepCompareView* sweepView_ = nullptr;
    QLabel* header_ = nullptr;
    QLabel* notes_ = nullptr;
    QTableWidget* table_ = nullptr;
    QCustomPlot* timeChart_ = nullptr;
    QCustomPlot* bandwidthChart_ = nullptr;
    QComboBox* variant_ = nullptr;
    MemoryStageView* stage_ = nullptr;
};

}  // namespace fusescope
