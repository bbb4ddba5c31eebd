#include "ui/results_model.h"

#include <QColor>
#include <QFont>

#include "model/captions.h"
#include "model/format.h"
#include "ui/roofline_words.h"

namespace fusescope {
namespace {

// Mid-tone status colours that stay readable on light and dark palettes.
const QColor kOkColor(0x2f, 0xa3, 0x6b);
const QColor kFailColor(0xd6, 0x3c, 0x3c);

QString checkText(const model::RunRecord& run) {
    if (run.checkOk)
        return QObject::tr("OK (max rel. error %1)")
            .arg(model::formatRelativeError(run.maxRelError));
    QString text =
        QObject::tr("FAIL: max rel. error %1").arg(model::formatRelativeError(run.maxRelError));
    if (run.unwrittenElements > 0)
        text += QObject::tr(", %1 elements never written")
                    .arg(model::formatCount(run.unwrittenElements));
    return text;
}

QString checkToolTip(const model::RunRecord& run) {
    return checkText(run) +
           QObject::tr(", against the CPU reference in double, %1").arg(model::checkScope(run));
}

QString notKnown() {
    return QStringLiteral("–");
}

}  // namespace

VariantResultsModel::VariantResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void VariantResultsModel::setRecording(const model::Recording& recording) {
    beginResetModel();
    runs_ = recording.runs;
    roofline_ = recording.roofline;
    endResetModel();
}

void VariantResultsModel::appendRun(const model::RunRecord& run) {
    const int row = static_cast<int>(runs_.size());
    beginInsertRows({}, row, row);
    runs_.push_back(run);
    endInsertRows();
}

void VariantResultsModel::clear() {
    beginResetModel();
    runs_.clear();
    roofline_ = {};
    endResetModel();
}

int VariantResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int VariantResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VariantResultsModel::display(const model::RunRecord& run, int column) const {
    switch (column) {
        case Variant:
            return run.variant;
        case Kernels:
            return QString::number(run.kernels.size());
        case Passes:
            return run.passesCounted ? QString::number(run.passes) : QStringLiteral("–");
        case ModelBytes:
            return model::formatBytes(run.modelBytesRead + run.modelBytesWritten);
        case TimeMs:
            return model::formatMilliseconds(run.timeMs);
        case GBps:
            return model::formatGBps(run.effectiveGBps());
        case Tflops:
            return run.modelFlops > 0 ? QString::number(run.achievedTflops(), 'g', 3) : notKnown();
        case RooflinePercent:
            return roofline_.gbps() > 0
                       ? model::formatPercent(run.effectiveGBps() / roofline_.gbps())
                       : notKnown();
        case PeakInFlight:
            return model::formatBytes(run.peakBytesInFlight);
        case Check:
            return checkText(run);
        default:
            return {};
    }
}

QVariant VariantResultsModel::sortValue(const model::RunRecord& run, int column) const {
    switch (column) {
        case Variant:
            return run.variant;
        case Kernels:
            return static_cast<int>(run.kernels.size());
        case Passes:
            return run.passes;
        case ModelBytes:
            return run.modelBytesRead + run.modelBytesWritten;
        case TimeMs:
            return run.timeMs;
        case GBps:
            return run.effectiveGBps();
        case Tflops:
            return run.achievedTflops();
        case RooflinePercent:
            return roofline_.gbps() > 0 ? run.effectiveGBps() / roofline_.gbps() : 0.0;
        case PeakInFlight:
            return run.peakBytesInFlight;
        case Check:
            return run.checkOk;
        default:
            return {};
    }
}

QString VariantResultsModel::timeToolTip(const model::RunRecord& run) {
    const QString median = tr("Median of %n repeats", nullptr, run.repeatTimesMs.size());
    if (run.kernels.size() < 2) return median + QLatin1Char('.');
    QString text =
        tr("%1, the %2 kernels launched back to back.").arg(median).arg(run.kernels.size());
    if (run.kernelsApartTimeMs > 0 && run.kernelsApartTimeMs != run.timeMs)
        text += QLatin1Char('\n') +
                tr("Each kernel timed apart, between its own events: %1 in all. Back to back, a "
                   "kernel can start while the previous one drains.")
                    .arg(model::formatDuration(run.kernelsApartTimeMs));
    return text;
}

QVariant VariantResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const model::RunRecord& run = runs_.at(index.row());
    switch (role) {
        case Qt::DisplayRole:
            return display(run, index.column());
        case SortRole:
            return sortValue(run, index.column());
        case Qt::ToolTipRole:
            if (index.column() == Check) return checkToolTip(run);
            if (index.column() == RooflinePercent && roofline_.gbps() > 0)
                return rooflineShareTooltip(run.effectiveGBps() / roofline_.gbps(),
                                            !run.passesCounted);
            if (index.column() == TimeMs) return timeToolTip(run);
            if (index.column() == ModelBytes)
                return tr("%1 read + %2 written by the pass model")
                    .arg(model::formatBytes(run.modelBytesRead),
                         model::formatBytes(run.modelBytesWritten));
            return {};
        case Qt::ForegroundRole:
            if (index.column() == Check) return run.checkOk ? kOkColor : kFailColor;
            return {};
        case Qt::FontRole:
            if (index.column() == Check || index.column() == Variant) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::TextAlignmentRole:
            if (index.column() == Variant || index.column() == Check)
                return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
    }
}

QVariant VariantResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == RooflinePercent)
        return rooflineMeaning();
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Variant:
            return tr("Variant");
        case Kernels:
            return tr("Kernels");
        case Passes:
            return tr("Passes");
        case ModelBytes:
            return tr("Model bytes");
        case TimeMs:
            return tr("Time (ms)");
        case GBps:
            return tr("GB/s");
        case Tflops:
            return tr("TFLOP/s");
        case RooflinePercent:
            return tr("% of copy roofline");
        case PeakInFlight:
            return tr("Peak in flight");
        case Check:
            return tr("Check");
        default:
            return {};
    }
}

KernelResultsModel::KernelResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelResultsModel::setRecording(const model::Recording& recording) {
    beginResetModel();
    rows_.clear();
    for (const model::RunRecord& run : recording.runs)
        for (const model::KernelRecord& kernel : run.kernels)
            rows_.push_back({run.variant, kernel});
    endResetModel();
}

void KernelResultsModel::appendRun(const model::RunRecord& run) {
    if (run.kernels.isEmpty()) return;
    const int first = static_cast<int>(rows_.size());
    beginInsertRows({}, first, first + static_cast<int>(run.kernels.size()) - 1);
    for (const model::KernelRecord& kernel : run.kernels) rows_.push_back({run.variant, kernel});
    endInsertRows();
}

void KernelResultsModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

int KernelResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int KernelResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = rows_.at(index.row());
    const model::KernelRecord& kernel = row.kernel;
    if (role == Qt::TextAlignmentRole)
        return index.column() <= Kernel ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && kernel.resourcesKnown && index.column() == Occupancy)
        return tr("block %1 threads, grid %2 blocks").arg(kernel.blockSize).arg(kernel.gridSize);
    if (role == Qt::ToolTipRole && !kernel.resourcesKnown && index.column() >= Registers)
        return tr("compiler resources exist only for CUDA kernels");
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Variant:
            return row.variant;
        case Kernel:
            return kernel.name;
        case TimeMs:
            return model::formatMilliseconds(kernel.timeMs);
        case BytesRead:
            return model::formatBytes(kernel.modelBytesRead);
        case BytesWritten:
            return model::formatBytes(kernel.modelBytesWritten);
        case Registers:
            return kernel.resourcesKnown ? QString::number(kernel.registersPerThread) : notKnown();
        case SharedBytes:
            return kernel.resourcesKnown ? model::formatBytes(kernel.sharedBytesPerBlock)
                                         : notKnown();
        case LocalBytes:
            return kernel.resourcesKnown ? model::formatBytes(kernel.localBytesPerThread)
                                         : notKnown();
        case Occupancy:
            return kernel.resourcesKnown ? model::formatPercent(kernel.theoreticalOccupancy)
                                         : notKnown();
        default:
            return {};
    }
}

QVariant KernelResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Variant:
            return tr("Variant");
        case Kernel:
            return tr("Kernel");
        case TimeMs:
            return tr("Time (ms)");
        case BytesRead:
            return tr("Model read");
        case BytesWritten:
            return tr("Model written");
        case Registers:
            return tr("Registers / thread");
        case SharedBytes:
            return tr("Shared / block");
        case LocalBytes:
            return tr("Local (spill) / thread");
        case Occupancy:
            return tr("Theoretical occupancy");
        default:
            return {};
    }
}

}  // namespace fusescope
