#pragma once
// The learner's declarations beside the editor: the buffers (inputs, output, scratch; N floats
// each), the passes in program order, and the peak in flight the buffers ask for. Removing the
// scratch buffer is the lab's "delete the cudaMalloc/cudaFree pair": the peak drops by N*4 bytes,
// and its passes go with it.
#include <QWidget>
#include <cstdint>

#include "model/lab/learner_kernel.h"

class QTableWidget;
class QPlainTextEdit;
class QLabel;
class QPushButton;

namespace fusescope {

class LabBuffers : public QWidget {
    Q_OBJECT
  public:
    explicit LabBuffers(QWidget* parent = nullptr);

    // The declarations of `kernel` (its entry, reference and source are kept for declared()).
    void setDeclarations(const model::LearnerKernel& kernel);
    // `base` with the buffers and passes shown here, or the reason they do not parse.
    Result<model::LearnerKernel> declared(const model::LearnerKernel& base) const;
    void setElementCount(std::uint64_t n);
    void removeBuffer(int row);  // and the passes that name it
    QTableWidget* table() const { return table_; }
    QPlainTextEdit* passesEdit() const { return passes_; }
    QLabel* peakLabel() const { return peak_; }

  signals:
    void changed();

  private:
    void addRow(const model::LearnerBuffer& buffer);
    void refreshPeak();

    QTableWidget* table_ = nullptr;
    // Wraps at its spaces: at 150% a one-line field scrolled its text out of sight.
    QPlainTextEdit* passes_ = nullptr;
    QLabel* peak_ = nullptr;
    QLabel* passesNote_ = nullptr;
    std::uint64_t n_ = std::uint64_t{1} << 24;
};

// "read gate, write scratch" and back.
QString passesText(const QVector<model::LearnerPass>& passes);

}  // namespace fusescope
