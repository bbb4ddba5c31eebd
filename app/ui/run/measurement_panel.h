#pragma once
// Model beside measurement: per kernel the pass model's bytes, the DRAM bytes read and written
// and the sectors the counters measured, the gap in percent and, above 10%, the reasons in plain
// words; fed from model::measurementGaps, so an opened recording explains itself as a live run
// does. When counters were refused it says why, once; with nothing measured, how to measure.
#include <QWidget>

#include "model/recording.h"
#include "worker/run_command.h"

class QLabel;
class QScrollArea;
class QTableWidget;

namespace fusescope {

class MeasurementPanel final : public QWidget {
    Q_OBJECT
  public:
    enum Column {
        Variant,
        Kernel,
        ModelBytes,
        DramRead,
        DramWritten,
        SectorsRead,
        SectorsWritten,
        L2Read,
        L2Written,
        Gap,
        Reasons,
        ColumnCount
    };

    explicit MeasurementPanel(QWidget* parent = nullptr);

    void setRecording(const model::Recording& recording);
    // What the machine can measure: the text shown with nothing measured follows it.
    void setBackendSummary(const BackendSummary& summary);

    QTableWidget* table() const { return table_; }
    QLabel* badgeLabel() const { return badge_; }
    QLabel* counterStatusLabel() const { return counterStatus_; }
    QLabel* emptyLabel() const { return empty_; }
    QLabel* whyLabel() const { return why_; }  // the selected row's reasons in full

    // With nothing measured: how to measure (backends not probed yet, or a usable GPU), or
    // that measuring needs an NVIDIA GPU and the shipped recordings carry measurements.
    static QString emptyText();
    static QString emptyText(const BackendSummary& summary);

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void showWhy(int row);
    void fitWhyArea();

    QLabel* badge_ = nullptr;
    QLabel* why_ = nullptr;
    QScrollArea* whyArea_ = nullptr;  // the reasons scroll past a third of the panel
    QLabel* counterStatus_ = nullptr;
    QLabel* empty_ = nullptr;
    QTableWidget* table_ = nullptr;
};

}  // namespace fusescope
