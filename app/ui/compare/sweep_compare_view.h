#pragma once
// Two size sweeps compared: one sweep chart of both on one scale, and in a second tab the ratios
// B / A per variant at every N either measured (sizes only one sweep has are marked as such). Fed a
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
    enum Column { Variant, N, TimeA, TimeB, TimeRatio, GBpsA, GBpsB, GBpsRatio, ColumnCount };

    explicit SweepCompareView(QWidget* parent = nullptr);

    void setComparison(const model::SweepComparison& comparison);

    QTableWidget* ratioTable() const { return table_; }
    SweepChart* chart() const { return chart_; }
    QTabWidget* tabs() const { return tabs_; }

  private:
    void fillTable(const model::SweepComparison& comparison);

    QTabWidget* tabs_ = nullptr;
    QTableWidget* table_ = nullptr;
    SweepChart* chart_ = nullptr;
};

}  // namespace fusescope
