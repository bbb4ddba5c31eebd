#include "ui/expression/expression_view.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "model/expression_preview.h"
#include "model/format.h"

namespace fusescope {
namespace {

constexpr int kLeastLog2N = 10;
constexpr int kMostLog2N = 30;
constexpr int kDefaultLog2N = 24;
constexpr int kFirstNumberColumn = 4;

QString namesOrDash(const QStringList& names) {
    return names.isEmpty() ? QStringLiteral("-") : names.join(QStringLiteral(", "));
}

void addRow(QTableWidget& table, const QStringList& cells, bool total) {
    const int row = table.rowCount();
    table.insertRow(row);
    for (int column = 0; column < cells.size(); ++column) {
        auto* item = new QTableWidgetItem(cells[column]);
        if (column >= kFirstNumberColumn) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (total) {
            QFont font = item->font();
            font.setBold(true);
            item->setFont(font);
        }
        table.setItem(row, column, item);
    }
}

}  // namespace

ExpressionView::ExpressionView(QWidget* parent) : QWidget(parent) {
    // Only the family: the size is inherited, so the text follows the zoom and the presentation
    // layout like the window's other views.
    QFont fixed;
    fixed.setFamilies(QFontDatabase::systemFont(QFontDatabase::FixedFont).families());
    fixed.setStyleHint(QFont::Monospace);
    // Empty until the learner types: the window's exports of a recording leave out a view with
    // nothing of its own to show.
    text_ = new QLineEdit;
    text_->setPlaceholderText(QStringLiteral("out = silu(g) * u"));
    text_->setObjectName(QStringLiteral("expressionText"));
    text_->setFont(fixed);
    text_->setToolTip(
        tr("+ - * /, exp log sqrt rsqrt sigmoid silu tanh gelu abs min max, numbers, "
           "`param name = number`; ';' between statements, '|' ends a kernel of your split. A "
           "name read before it is assigned is an input; an assigned name nothing reads is an "
           "output."));
    log2N_ = new QSpinBox;
    log2N_->setObjectName(QStringLiteral("expressionLog2N"));
    log2N_->setRange(kLeastLog2N, kMostLog2N);
    log2N_->setValue(kDefaultLog2N);
    log2N_->setPrefix(QStringLiteral("N = 2^"));
    width_ = new QComboBox;
    width_->setObjectName(QStringLiteral("expressionVector"));
    width_->addItem(tr("vector 4"), 4);
    width_->addItem(tr("vector 1"), 1);
    run_ = new QPushButton(tr("Run"));
    run_->setObjectName(QStringLiteral("expressionRun"));

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Chain")));
    top->addWidget(text_, 1);
    top->addWidget(log2N_);
    top->addWidget(width_);
    top->addWidget(run_);

    message_ = new QLabel;
    message_->setObjectName(QStringLiteral("expressionMessage"));
    message_->setFont(fixed);
    message_->setWordWrap(true);
    message_->setTextFormat(Qt::PlainText);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    ledger_ = new QTableWidget;
    ledger_->setObjectName(QStringLiteral("expressionLedger"));
    ledger_->setColumnCount(9);
    ledger_->setHorizontalHeaderLabels({tr("Variant"), tr("Kernel"), tr("Reads"), tr("Writes"),
                                        tr("Ops"), tr("Passes"), tr("Requested bytes (model)"),
                                        tr("Live bytes"), tr("Peak in flight")});
    ledger_->verticalHeader()->hide();
    ledger_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    ledger_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    ledger_->horizontalHeader()->setStretchLastSection(true);

    cuda_ = new QPlainTextEdit;
    cuda_->setObjectName(QStringLiteral("expressionCuda"));
    // Read-only, still selectable and copyable.
    cuda_->setReadOnly(true);
    cuda_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    cuda_->setFont(fixed);
    cuda_->setLineWrapMode(QPlainTextEdit::NoWrap);

    // One page each, so that the ledger's every column fits the width of a 1280x720 screen.
    auto* pages = new QTabWidget;
    pages->setObjectName(QStringLiteral("expressionPages"));
    pages->setDocumentMode(true);
    pages->addTab(ledger_, tr("Predicted ledger"));
    pages->addTab(cuda_, tr("Generated CUDA"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(message_);
    layout->addWidget(pages, 1);

    connect(text_, &QLineEdit::textChanged, this, &ExpressionView::refresh);
    connect(log2N_, &QSpinBox::valueChanged, this, &ExpressionView::refresh);
    connect(width_, &QComboBox::currentIndexChanged, this, &ExpressionView::refresh);
    connect(text_, &QLineEdit::returnPressed, this, &ExpressionView::requestRun);
    connect(run_, &QPushButton::clicked, this, &ExpressionView::requestRun);
    refresh();
}

QString ExpressionView::expression() const {
    return text_->text();
}

void ExpressionView::setExpression(const QString& text) {
    text_->setText(text);
}

quint64 ExpressionView::elementCount() const {
    return quint64{1} << log2N_->value();
}

int ExpressionView::vectorWidth() const {
    return width_->currentData().toInt();
}

void ExpressionView::setRunning(bool running) {
    running_ = running;
    run_->setEnabled(parses_ && !running_);
}

void ExpressionView::showProblem(const QString& message) {
    message_->setText(message);
}

void ExpressionView::refresh() {
    const model::ExpressionPreview preview =
        model::previewExpression(expression(), elementCount(), vectorWidth());
    parses_ = preview.ok;
    run_->setEnabled(parses_ && !running_);
    ledger_->setRowCount(0);
    if (expression().trimmed().isEmpty()) {
        message_->setText(
            tr("Type an elementwise chain, such as out = silu(g) * u; '|' ends a "
               "kernel of your split."));
        cuda_->clear();
        return;
    }
    if (!preview.ok) {
        // The text with a caret under the character the error points at.
        message_->setText(preview.error + QLatin1Char('\n') + expression() + QLatin1Char('\n') +
                          QString(preview.errorPosition, QLatin1Char(' ')) + QLatin1Char('^'));
        cuda_->clear();
        return;
    }
    message_->setText(
        tr("Predicted before the run (float32, N elements): requested bytes by the traffic "
           "model; live, the arrays a kernel needs; in flight, every array of the variant. '|' "
           "ends a kernel of your split."));
    for (const model::ExpressionVariantLedger& variant : preview.variants) {
        for (const model::ExpressionKernelRow& kernel : variant.kernels)
            addRow(*ledger_,
                   {variant.variant, kernel.kernel, namesOrDash(kernel.reads),
                    namesOrDash(kernel.writes), QString::number(kernel.operations),
                    QString::number(kernel.passes), model::formatBytes(kernel.requestedBytes),
                    model::formatBytes(kernel.liveBytes), QString()},
                   false);
        addRow(
            *ledger_,
            {variant.variant,
             tr("all %n kernel(s)", nullptr, static_cast<int>(variant.kernels.size())), QString(),
             QString(), QString(), QString::number(variant.passes),
             model::formatBytes(variant.requestedBytes), model::formatBytes(variant.peakLiveBytes),
             model::formatBytes(variant.peakInFlightBytes)},
            true);
    }
    cuda_->setPlainText(preview.cuda);
}

void ExpressionView::requestRun() {
    if (running_ || !parses_) return;
    emit runRequested(expression(), elementCount(), vectorWidth());
}

}  // namespace fusescope
