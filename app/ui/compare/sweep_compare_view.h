#pragma once
// Two size sweeps compared: one sweep chart of both on one scale; in a second tab the ratios
// B / A per variant at every size either measured (sizes only one sweep has are marked as such;
// the size column is headed by the swept dimension's name, "N" or "M"); in a
// third each sweep's fitted launch overhead and bandwidth per variant. Fed a
// model::SweepComparison; the compare window shows it in place of the runs' views.
#include <QWidget>

#include "model/sweep_comparison.h"

class QTabWidget;
class QTableWidget;

namespace fusescope {

class SweepChart;

class SweepCompareView final : public QWidget {
    Q_OBJECT
  public:
    enum Column { Variant, Size, TimeA, TimeB, TimeRatio, GBpsA, GBpsB, GBpsRatio, ColumnCount };

    explicit SweepCompareView(QWidget* parent = nullptr);

    void setComparison(const model::SweepComparison& comparison);

    QTableWidget* ratioTable() const { return table_; }
    // Per variant: each sweep's fitted overhead per launch and bandwidth, and the bandwidths'
    // ratio.
    QTableWidget* fitTable() const { return fits_; }
    SweepChart* chart() const { return chart_; }
    QTabWidget* tabs() const { return tabs_; }

  private:
    void fillTable(const model::SweepComparison& comparison);
    void fillFits(const model::SweepComparison& comparison);

    QTabWidget* tabs_ = nullptr;
    QTableWidget* table_ = nullptr;
    QTableWidget* fits_ = nullptr;
    SweepChart* chart_ = nullptr;
};

}  // namespace fusescope
