#include "ui/run/measurement_panel.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableWidget>
#include <QVBoxLayout>

#include "model/count_spread_text.h"
#include "model/format.h"
#include "model/measured_counts.h"
#include "model/measurement_gaps.h"
#include "ui/widgets/read_only_cell.h"

namespace fusescope {
namespace {

QTableWidgetItem* cell(const QString& text, Qt::Alignment alignment = Qt::AlignRight) {
    return readOnlyCell(text, alignment | Qt::AlignTop);
}

// One line in the table; all of it in the tooltip.
QTableWidgetItem* reasonsCell(const QStringList& reasons) {
    QTableWidgetItem* item = cell(reasons.join(QStringLiteral(" · ")), Qt::AlignLeft);
    item->setToolTip(reasons.join(QLatin1Char('\n')));
    return item;
}

QString bytesText(const std::optional<double>& bytes) {
    return bytes ? model::formatBytes(static_cast<quint64>(*bytes + 0.5)) : QStringLiteral("-");
}

QString countText(const std::optional<double>& count) {
    return count ? model::formatCount(static_cast<quint64>(*count + 0.5)) : QStringLiteral("-");
}

QString gapText(const std::optional<double>& percent) {
    if (!percent) return QStringLiteral("-");
    return QStringLiteral("%1%2%").arg(*percent >= 0 ? "+" : "").arg(*percent, 0, 'f', 1);
}

const KernelResult* findKernel(const model::Recording& recording, const QString& variant,
                               const QString& kernel) {
    for (const model::VariantResult& run : recording.runs)
        if (model::toQString(run.variant) == variant)
            for (const KernelResult& record : run.kernels)
                if (record.name == kernel.toStdString()) return &record;
    return nullptr;
}

// The badge of the counter numbers: replayed ones say so, with where they came from.
QString sourceOf(const model::Recording& recording) {
    QString counters;
    for (const model::VariantResult& run : recording.runs)
        if (run.countersSource)
            counters = model::dataSourceLabel(model::dataSourceFrom(*run.countersSource));
    if (counters.isEmpty()) counters = model::dataSourceLabel(model::DataSource::Counters);
    if (!recording.replayed) return counters;
    return QObject::tr("%1 (%2)").arg(model::dataSourceLabel(model::DataSource::Replay), counters);
}

// A kernel's DRAM count: the median and, where its counted launches moved it, their range.
QTableWidgetItem* dramCell(const KernelResult* record, double KernelCounters::*median,
                           std::optional<CountSpread> KernelCounters::*spread) {
    if (!record || !record->counters) return cell(QStringLiteral("-"));
    const KernelCounters& counters = *record->counters;
    QTableWidgetItem* item = cell(model::bytesWithSpreadText(counters.*median, counters.*spread));
    item->setToolTip(model::spreadToolTip(counters.countedLaunches, counters.*spread));
    return item;
}

// Bytes from L2 sectors (32 B each), or nothing where the recording has none.
std::optional<double> l2Bytes(const std::optional<double>& sectors) {
    if (!sectors) return std::nullopt;
    return *sectors * 32.0;
}

}  // namespace

QString MeasurementPanel::emptyText() {
    return tr(
        "Nothing measured: tick Measure (GPU) and run on the CUDA backend to measure DRAM "
        "traffic");
}

QString MeasurementPanel::emptyText(const BackendSummary& summary) {
    if (summary.cudaUsable) return emptyText();
    const QString why = summary.cudaBuilt ? tr("this machine has no GPU that CUDA can use")
                                          : tr("this build of FuseScope has no CUDA backend");
    return tr("Nothing measured: measuring DRAM traffic needs an NVIDIA GPU, and %1. The shipped "
              "recordings carry measurements from a real GPU: open one from the start page or "
              "File > Open recording or sweep…")
        .arg(why);
}

void MeasurementPanel::setBackendSummary(const BackendSummary& summary) {
    empty_->setText(emptyText(summary));
}

MeasurementPanel::MeasurementPanel(QWidget* parent) : QWidget(parent) {
    badge_ = new QLabel;
    badge_->setObjectName(QStringLiteral("measurementBadge"));
    badge_->setTextFormat(Qt::PlainText);
    counterStatus_ = new QLabel;
    counterStatus_->setObjectName(QStringLiteral("counterStatus"));
    counterStatus_->setWordWrap(true);
    counterStatus_->setTextFormat(Qt::PlainText);  // the recording's words, never HTML
    counterStatus_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    empty_ = new QLabel(emptyText());
    empty_->setObjectName(QStringLiteral("measurementEmpty"));
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    table_ = new QTableWidget(0, ColumnCount);
    table_->setObjectName(QStringLiteral("measurementTable"));
    table_->setHorizontalHeaderLabels({tr("Variant"), tr("Kernel"), tr("Model bytes"),
                                       tr("DRAM read"), tr("DRAM written"), tr("L1 sectors read"),
                                       tr("L1 sectors written"), tr("L2 requested read"),
                                       tr("L2 requested written"), tr("Gap"), tr("Why")});
    table_->horizontalHeaderItem(L2Read)->setToolTip(
        tr("Bytes the SMs requested from the L2 cache (32-byte sectors), tensor-memory-"
           "accelerator loads included: re-reads the L2 absorbs show here but not in DRAM."));
    table_->verticalHeader()->setVisible(false);
    table_->setAlternatingRowColors(true);
    // One line a row, so every variant shows even on a small screen: a wrapped reason in a
    // narrow column made one row as tall as the table. The reasons are in full in the row's
    // tooltip and, for the selected row, under the table.
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideRight);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    // By pixel, so a row scrolled into sight is whole, not half under the scroll bar.
    table_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    table_->viewport()->installEventFilter(this);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(Reasons, QHeaderView::Stretch);
    why_ = new QLabel;
    why_->setObjectName(QStringLiteral("measurementWhy"));
    why_->setWordWrap(true);
    why_->setTextFormat(Qt::PlainText);
    why_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) { showWhy(row); });
    whyArea_ = new QScrollArea;
    whyArea_->setObjectName(QStringLiteral("measurementWhyArea"));
    whyArea_->setWidget(why_);
    whyArea_->setWidgetResizable(true);
    whyArea_->setFrameShape(QFrame::NoFrame);
    whyArea_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(badge_);
    layout->addWidget(counterStatus_);
    layout->addWidget(empty_, 1);
    layout->addWidget(table_, 1);
    layout->addWidget(whyArea_);
    setRecording({});
}

void MeasurementPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitWhyArea();
}

// The reasons below, or a scroll bar appearing, may take rows from the table: the selected row
// stays in sight.
bool MeasurementPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_->viewport() && event->type() == QEvent::Resize &&
        table_->currentIndex().isValid())
        table_->scrollTo(table_->currentIndex());
    return QWidget::eventFilter(watched, event);
}

void MeasurementPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) fitWhyArea();
}

// The reasons take the lines they need up to a third of the panel (two lines at least), so
// the table above keeps its rows even for a kernel with several long reasons; past that they
// scroll.
void MeasurementPanel::fitWhyArea() {
    const int lines = 2 * why_->fontMetrics().lineSpacing();
    const int needed = why_->text().isEmpty() ? 0 : why_->heightForWidth(width());
    whyArea_->setFixedHeight(qMin(needed, qMax(lines, height() / 3)));
}

void MeasurementPanel::showWhy(int row) {
    const QTableWidgetItem* reasons = row >= 0 ? table_->item(row, Reasons) : nullptr;
    const QTableWidgetItem* kernel = row >= 0 ? table_->item(row, Kernel) : nullptr;
    if (!reasons || reasons->toolTip().isEmpty()) {
        why_->setText(table_->rowCount() > 0
                          ? tr("Select a row to read why its bytes differ from the model.")
                          : QString());
    } else {
        why_->setText(tr("Why %1 differs from the model: %2")
                          .arg(kernel ? kernel->text() : QString(),
                               reasons->toolTip().replace(QLatin1Char('\n'), QLatin1Char(' '))));
    }
    fitWhyArea();
}

void MeasurementPanel::setRecording(const model::Recording& recording) {
    const QVector<model::RunGapView> gaps = model::measurementGaps(recording);
    const QString counterStatus = QString::fromStdString(recording.counterStatus);
    counterStatus_->setVisible(!counterStatus.isEmpty());
    counterStatus_->setText(tr("Counters were not measured: %1").arg(counterStatus));
    empty_->setVisible(gaps.isEmpty());
    table_->setVisible(!gaps.isEmpty());
    const std::optional<std::uint32_t> launches = model::countedLaunchesOf(recording);
    badge_->setText(gaps.isEmpty() ? tr("Model beside measurement")
                    : launches
                        ? tr("Model beside measurement · data: %1 and the pass model · medians "
                             "of %2 launches")
                              .arg(sourceOf(recording))
                              .arg(*launches)
                        : tr("Model beside measurement · data: %1 and the pass model")
                              .arg(sourceOf(recording)));

    int rows = 0;
    for (const model::RunGapView& run : gaps) rows += run.kernels.size() + 1;
    table_->setRowCount(rows);
    int row = 0;
    for (const model::RunGapView& run : gaps) {
        // The run's own row first (its total), then its kernels.
        std::optional<double> read, written, sectorsRead, sectorsWritten, l2Read, l2Written;
        const auto add = [](std::optional<double>& sum, const std::optional<double>& value) {
            if (value) sum = sum.value_or(0.0) + *value;
        };
        for (const model::KernelGapView& kernel : run.kernels)
            if (const KernelResult* record = findKernel(recording, run.variant, kernel.kernel)) {
                add(read, model::measured(*record, &KernelCounters::dramBytesRead));
                add(written, model::measured(*record, &KernelCounters::dramBytesWritten));
                add(sectorsRead, model::measured(*record, &KernelCounters::sectorsRead));
                add(sectorsWritten, model::measured(*record, &KernelCounters::sectorsWritten));
                add(l2Read, l2Bytes(model::measured(*record, &KernelCounters::l2SectorsRead)));
                add(l2Written,
                    l2Bytes(model::measured(*record, &KernelCounters::l2SectorsWritten)));
            }
        QTableWidgetItem* variant = cell(run.variant, Qt::AlignLeft);
        QFont bold = variant->font();
        bold.setBold(true);
        variant->setFont(bold);
        table_->setItem(row, Variant, variant);
        table_->setItem(row, Kernel, cell(tr("whole run"), Qt::AlignLeft));
        table_->setItem(row, ModelBytes,
                        cell(model::formatBytes(static_cast<quint64>(run.modelBytes + 0.5))));
        table_->setItem(row, DramRead, cell(bytesText(read)));
        table_->setItem(row, DramWritten, cell(bytesText(written)));
        table_->setItem(row, SectorsRead, cell(countText(sectorsRead)));
        table_->setItem(row, SectorsWritten, cell(countText(sectorsWritten)));
        table_->setItem(row, L2Read, cell(bytesText(l2Read)));
        table_->setItem(row, L2Written, cell(bytesText(l2Written)));
        table_->setItem(row, Gap, cell(gapText(run.percent)));
        table_->setItem(row, Reasons, reasonsCell(run.reasons));
        ++row;
        for (const model::KernelGapView& kernel : run.kernels) {
            const KernelResult* record = findKernel(recording, run.variant, kernel.kernel);
            table_->setItem(row, Variant, cell(QString(), Qt::AlignLeft));
            table_->setItem(row, Kernel, cell(kernel.kernel, Qt::AlignLeft));
            table_->setItem(
                row, ModelBytes,
                cell(model::formatBytes(static_cast<quint64>(kernel.modelBytes + 0.5))));
            // A count of this kernel's, empty where the kernel or the count was not measured.
            const auto count = [record](auto counter) -> std::optional<double> {
                return record ? model::measured(*record, counter) : std::nullopt;
            };
            table_->setItem(
                row, DramRead,
                dramCell(record, &KernelCounters::dramBytesRead, &KernelCounters::dramReadSpread));
            table_->setItem(row, DramWritten,
                            dramCell(record, &KernelCounters::dramBytesWritten,
                                     &KernelCounters::dramWrittenSpread));
            table_->setItem(row, SectorsRead, cell(countText(count(&KernelCounters::sectorsRead))));
            table_->setItem(row, SectorsWritten,
                            cell(countText(count(&KernelCounters::sectorsWritten))));
            table_->setItem(row, L2Read,
                            cell(bytesText(l2Bytes(count(&KernelCounters::l2SectorsRead)))));
            table_->setItem(row, L2Written,
                            cell(bytesText(l2Bytes(count(&KernelCounters::l2SectorsWritten)))));
            table_->setItem(row, Gap, cell(gapText(kernel.percent)));
            table_->setItem(row, Reasons, reasonsCell(kernel.reasons));
            ++row;
        }
    }
    showWhy(table_->currentRow());
}

}  // namespace fusescope
