#include "ui/lab/lab_buffers.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "model/format.h"
#include "ui/export/table_export.h"

namespace fusescope {
namespace {

constexpr model::LearnerBufferRole kRoles[] = {model::LearnerBufferRole::Input,
                                               model::LearnerBufferRole::Output,
                                               model::LearnerBufferRole::Scratch};

}  // namespace

QString passesText(const QVector<model::LearnerPass>& passes) {
    QStringList words;
    for (const model::LearnerPass& pass : passes)
        words << (pass.write ? QStringLiteral("write ") : QStringLiteral("read ")) + pass.buffer;
    return words.join(QStringLiteral(", "));
}

LabBuffers::LabBuffers(QWidget* parent) : QWidget(parent) {
    table_ = new QTableWidget(0, 2);
    table_->setObjectName(QStringLiteral("labBufferTable"));
    // The learner's declarations, not a view of the open recording: exports leave it out.
    table_->setProperty(kNotARecordingView, true);
    table_->setHorizontalHeaderLabels({tr("Buffer (N floats)"), tr("Role")});
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(table_, &QTableWidget::itemChanged, this, [this] {
        refreshPeak();
        emit changed();
    });

    auto* add = new QPushButton(tr("Add buffer"));
    add->setObjectName(QStringLiteral("labAddBuffer"));
    auto* remove = new QPushButton(tr("Remove buffer"));
    remove->setObjectName(QStringLiteral("labRemoveBuffer"));
    remove->setToolTip(
        tr("Remove the selected buffer and its passes: for the scratch buffer, "
           "the lab's cudaMalloc/cudaFree pair"));
    connect(add, &QPushButton::clicked, this, [this] {
        addRow({QStringLiteral("buffer%1").arg(table_->rowCount() + 1),
                model::LearnerBufferRole::Input});
        refreshPeak();
        emit changed();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (table_->currentRow() >= 0) removeBuffer(table_->currentRow());
    });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);

    passes_ = new QPlainTextEdit;
    passes_->setObjectName(QStringLiteral("labPasses"));
    passes_->setTabChangesFocus(true);
    passes_->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    // Three lines: the starter's five passes wrap to two or three in the narrow column.
    passes_->setFixedHeight(
        3 * passes_->fontMetrics().lineSpacing() +
        2 * (passes_->frameWidth() + static_cast<int>(passes_->document()->documentMargin())));
    passes_->setToolTip(
        tr("The whole-array sweeps of your kernel in program order, e.g. \"read "
           "gate, write out\": the pass counter shows these unless counters "
           "measured the traffic"));
    connect(passes_, &QPlainTextEdit::textChanged, this, [this] {
        refreshPeak();
        emit changed();
    });
    passesNote_ = new QLabel;
    passesNote_->setWordWrap(true);
    peak_ = new QLabel;
    peak_->setObjectName(QStringLiteral("labPeak"));
    peak_->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    layout->addWidget(new QLabel(tr("Passes (declared, in order):")));
    layout->addWidget(passes_);
    layout->addWidget(passesNote_);
    layout->addWidget(peak_);
}

void LabBuffers::addRow(const model::LearnerBuffer& buffer) {
    const QSignalBlocker quiet(table_);
    const int row = table_->rowCount();
    table_->insertRow(row);
    table_->setItem(row, 0, new QTableWidgetItem(buffer.name));
    auto* role = new QComboBox;
    for (model::LearnerBufferRole each : kRoles) role->addItem(model::roleName(each));
    role->setCurrentText(model::roleName(buffer.role));
    connect(role, &QComboBox::currentIndexChanged, this, [this] {
        refreshPeak();
        emit changed();
    });
    table_->setCellWidget(row, 1, role);
}

void LabBuffers::setDeclarations(const model::LearnerKernel& kernel) {
    {
        const QSignalBlocker quiet(table_);
        table_->setRowCount(0);
        for (const model::LearnerBuffer& buffer : kernel.buffers) addRow(buffer);
    }
    passes_->setPlainText(passesText(kernel.passes));
    refreshPeak();
}

Result<model::LearnerKernel> LabBuffers::declared(const model::LearnerKernel& base) const {
    model::LearnerKernel kernel = base;
    kernel.buffers.clear();
    kernel.passes.clear();
    for (int row = 0; row < table_->rowCount(); ++row) {
        const auto* role = static_cast<QComboBox*>(table_->cellWidget(row, 1));
        kernel.buffers.push_back(
            {table_->item(row, 0)->text().trimmed(), kRoles[std::max(0, role->currentIndex())]});
    }
    for (const QString& pass :
         passes_->toPlainText().simplified().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList words = pass.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.size() != 2 ||
            (words[0] != QLatin1String("read") && words[0] != QLatin1String("write")))
            return Status(ErrorCode::InvalidArgument,
                          tr("\"%1\" is no pass: say \"read NAME\" or \"write NAME\"")
                              .arg(pass.trimmed())
                              .toStdString());
        kernel.passes.push_back({words[0] == QLatin1String("write"), words[1]});
    }
    // The declarations must survive a save and a load: checked by the file's own parser.
    return model::parseLearnerKernel(model::writeLearnerKernel(kernel));
}

void LabBuffers::setElementCount(std::uint64_t n) {
    n_ = n;
    refreshPeak();
}

void LabBuffers::removeBuffer(int row) {
    if (row < 0 || row >= table_->rowCount()) return;
    const QString name = table_->item(row, 0)->text().trimmed();
    table_->removeRow(row);
    QStringList words;
    for (const QString& pass :
         passes_->toPlainText().simplified().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (pass.split(QLatin1Char(' '), Qt::SkipEmptyParts).value(1) != name)
            words << pass.trimmed();
    passes_->setPlainText(words.join(QStringLiteral(", ")));
    refreshPeak();
    emit changed();
}

void LabBuffers::refreshPeak() {
    const std::uint64_t bytesEach = n_ * sizeof(float);
    const int buffers = table_->rowCount();
    peak_->setText(tr("Peak in flight (allocated bytes, not traffic): %1 buffers x %2 = %3")
                       .arg(buffers)
                       .arg(model::formatBytes(bytesEach),
                            model::formatBytes(bytesEach * static_cast<std::uint64_t>(buffers))));
    model::LearnerKernel probe;
    probe.entry = QStringLiteral("k");
    probe.reference = QStringLiteral("k");
    const Result<model::LearnerKernel> parsed = declared(probe);
    passesNote_->setText(parsed ? tr("%1 passes declared").arg(parsed->passCount())
                                : QString::fromStdString(parsed.status().message()));
}

}  // namespace fusescope
