#pragma once
// The expression lab's view: the learner types an elementwise chain; before anything runs it
// shows the parse error at its character with what was expected, or the predicted ledger of every
// variant (requested bytes by the traffic model, the peak in flight) and the generated CUDA,
// read-only and copyable; Run hands the chain to the window's run path.
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace fusescope {

class ExpressionView : public QWidget {
    Q_OBJECT
  public:
    explicit ExpressionView(QWidget* parent = nullptr);

    QString expression() const;
    void setExpression(const QString& text);
    quint64 elementCount() const;
    int vectorWidth() const;
    // While a run goes, Run waits.
    void setRunning(bool running);
    // A refusal of the run path, shown under the chain.
    void showProblem(const QString& message);

    QLineEdit* textField() const { return text_; }
    QLabel* messageLabel() const { return message_; }
    QTableWidget* ledgerTable() const { return ledger_; }
    QPlainTextEdit* cudaText() const { return cuda_; }
    QPushButton* runButton() const { return run_; }

  signals:
    // Run every variant of `text` at `n` elements and the vector width.
    void runRequested(const QString& text, quint64 n, int vectorWidth);

  private:
    void refresh();
    void requestRun();

    QLineEdit* text_ = nullptr;
    QSpinBox* log2N_ = nullptr;
    QComboBox* width_ = nullptr;
    QPushButton* run_ = nullptr;
    QLabel* message_ = nullptr;
    QTableWidget* ledger_ = nullptr;
    QPlainTextEdit* cuda_ = nullptr;
    bool running_ = false;
    bool parses_ = false;
};

}  // namespace fusescope
