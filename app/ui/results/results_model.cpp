#include "ui/results/results_model.h"

#include <QColor>
#include <QFont>

#include "model/captions.h"
#include "model/count_spread_text.h"
#include "model/format.h"
#include "model/run_passes.h"
#include "ui/charts/roofline_words.h"

namespace fusescope {
namespace {

// Mid-tone status colours that stay readable on light and dark palettes.
const QColor kOkColor(0x2f, 0xa3, 0x6b);
const QColor kFailColor(0xd6, 0x3c, 0x3c);
const QColor kNotRunColor(0x80, 0x80, 0x80);

QString checkText(const model::VariantResult& run) {
    if (run.check.ok)
        return QObject::tr("OK (max rel. error %1)")
            .arg(model::formatRelativeError(run.check.error));
    QString text =
        QObject::tr("FAIL: max rel. error %1").arg(model::formatRelativeError(run.check.error));
    if (run.check.unwrittenElements > 0)
        text += QObject::tr(", %1 elements never written")
                    .arg(model::formatCount(run.check.unwrittenElements));
    if (const QString where = model::wrongElementText(run); !where.isEmpty())
        text += QObject::tr("; %1").arg(where);
    return text;
}

QString checkToolTip(const model::VariantResult& run) {
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
    notRun_ = recording.variantsNotRun;
    traffic_.clear();
    for (const model::VariantResult& run : runs_) traffic_.push_back(model::runTraffic(run));
    roofline_ = recording.roofline;
    endResetModel();
}

void VariantResultsModel::appendRun(const model::VariantResult& run) {
    const int row = static_cast<int>(runs_.size());
    beginInsertRows({}, row, row);
    runs_.push_back(run);
    traffic_.push_back(model::runTraffic(run));
    endInsertRows();
    // The rate column's title names the sources of every run shown.
    emit headerDataChanged(Qt::Horizontal, GBps, GBps);
}

void VariantResultsModel::clear() {
    beginResetModel();
    runs_.clear();
    notRun_.clear();
    traffic_.clear();
    roofline_ = {};
    endResetModel();
}

int VariantResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size() + notRun_.size());
}

int VariantResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

bool VariantResultsModel::anyDram() const {
    for (const model::RunTraffic& traffic : traffic_)
        if (traffic.hasDram()) return true;
    return false;
}

QVariant VariantResultsModel::display(int row, int column) const {
    const model::VariantResult& run = runs_.at(row);
    const model::RunTraffic& traffic = traffic_.at(row);
    switch (column) {
        case Variant:
            return model::toQString(run.variant);
        case Kernels:
            return QString::number(run.kernels.size());
        case Passes:
            if (const std::optional<int> passes = model::shownPasses(run))
                return QString::number(*passes);
            return QStringLiteral("–");
        case RequestedBytes:
            return model::formatBytes(run.modelBytesRead + run.modelBytesWritten);
        case DramBytes:
            return traffic.hasDram()
                       ? tr("%1 %2").arg(model::formatBytes(quint64(traffic.dramBytes)),
                                         model::dramSourceWord(traffic.dramSource))
                       : notKnown();
        case TimeMs:
            return model::formatMilliseconds(run.timeMs);
        case GBps:
            if (!anyDram()) return model::formatGBps(traffic.requestedGBps());
            return traffic.hasDram() ? model::formatGBps(traffic.dramGBps()) : notKnown();
        case Tflops:
            if (!(traffic.usefulFlops > 0)) return notKnown();
            if (traffic.executesExtraFlops())
                return tr("%1 (%2 executed)")
                    .arg(QString::number(traffic.usefulTflops(), 'g', 3),
                         QString::number(traffic.executedTflops(), 'g', 3));
            return QString::number(traffic.usefulTflops(), 'g', 3);
        case RooflinePercent: {
            const std::optional<double> share = model::rooflineShare(traffic, roofline_);
            return share ? model::formatPercent(*share) : notKnown();
        }
        case PeakInFlight:
            return model::formatBytes(run.peakBytesInFlight);
        case Check:
            return checkText(run);
        default:
            return {};
    }
}

QVariant VariantResultsModel::sortValue(int row, int column) const {
    const model::VariantResult& run = runs_.at(row);
    const model::RunTraffic& traffic = traffic_.at(row);
    switch (column) {
        case Variant:
            return model::toQString(run.variant);
        case Kernels:
            return static_cast<int>(run.kernels.size());
        case Passes:
            return model::shownPasses(run).value_or(0);
        case RequestedBytes:
            return quint64(run.modelBytesRead + run.modelBytesWritten);
        case DramBytes:
            return traffic.dramBytes;
        case TimeMs:
            return run.timeMs;
        case GBps:
            return anyDram() ? traffic.dramGBps() : traffic.requestedGBps();
        case Tflops:
            return traffic.usefulTflops();
        case RooflinePercent:
            return model::rooflineShare(traffic, roofline_).value_or(0.0);
        case PeakInFlight:
            return quint64(run.peakBytesInFlight);
        case Check:
            return run.check.ok;
        default:
            return {};
    }
}

QString VariantResultsModel::timeToolTip(const model::VariantResult& run) {
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

QVariant VariantResultsModel::toolTip(int row, int column) const {
    const model::VariantResult& run = runs_.at(row);
    const model::RunTraffic& traffic = traffic_.at(row);
    switch (column) {
        case Check:
            return checkToolTip(run);
        case TimeMs:
            return timeToolTip(run);
        case RequestedBytes:
            return tr("%1 read + %2 written, requested by the kernels as the traffic model "
                      "counts them: every re-read of a tile is counted, and the L1 and L2 "
                      "serve most re-reads.")
                .arg(model::formatBytes(run.modelBytesRead),
                     model::formatBytes(run.modelBytesWritten));
        case DramBytes:
            if (traffic.dramSource == model::DramSource::Measured) {
                QString text = tr("Bytes read and written in DRAM, measured by the counters.");
                if (const QStringList moved = model::movedCountLines(run); !moved.isEmpty())
                    text += QLatin1Char('\n') +
                            tr("Each kernel's counts are the medians of its counted launches. "
                               "Counts that moved by more than 3% or 1 MB from launch to "
                               "launch:") +
                            QLatin1Char('\n') + moved.join(QLatin1Char('\n'));
                if (traffic.servedOnChipBytes() > 0)
                    text += QLatin1Char('\n') +
                            tr("Re-read from L1/L2: %1 of the %2 requested never reached DRAM.")
                                .arg(model::formatBytes(quint64(traffic.servedOnChipBytes())),
                                     model::formatBytes(quint64(traffic.requestedBytes)));
                return text;
            }
            if (traffic.dramSource == model::DramSource::Model)
                return tr(
                    "No counters measured this run: the model's distinct bytes, each "
                    "buffer read and written at most once per kernel.");
            return tr("Not known: the registry does not know this run's pipeline.");
        case GBps:
            if (!anyDram())
                return tr("Bytes %1 over the time; not DRAM bandwidth.")
                    .arg(QLatin1String(model::kRequestedOnlyWords));
            return tr("DRAM bytes (%1) over the time. The requested bytes over the time: %2 "
                      "GB/s, most of them re-reads served by the L1 and L2.")
                .arg(model::dramSourceWord(traffic.dramSource),
                     model::formatGBps(traffic.requestedGBps()));
        case Tflops:
            if (traffic.executesExtraFlops())
                return tr("Useful FLOPs (those of the reference variant's math) over the time. "
                          "The kernels execute %1x as many, recomputing values: %2 TFLOP/s "
                          "executed.")
                    .arg(traffic.flopsRatio(), 0, 'f', 1)
                    .arg(QString::number(traffic.executedTflops(), 'g', 3));
            return tr("Useful FLOPs (those of the reference variant's math) over the time.");
        case RooflinePercent:
            if (const std::optional<double> share = model::rooflineShare(traffic, roofline_))
                return tr("DRAM bytes (%1) per second as a share of the copy roofline.")
                           .arg(model::dramSourceWord(traffic.dramSource)) +
                       QLatin1Char('\n') + rooflineShareTooltip(*share);
            return tr(
                "No DRAM figure: requested bytes are never held against the copy "
                "roofline.");
        default:
            return {};
    }
}

// A variant the run left out: its name, "not run" where the check would be, the reason in every
// cell's tooltip, in grey; it sorts after every run.
QVariant VariantResultsModel::notRunData(const model::VariantNotRun& variant, int column,
                                         int role) const {
    switch (role) {
        case Qt::DisplayRole:
            if (column == Variant) return model::toQString(variant.variant);
            if (column == Check) return tr("not run");
            return notKnown();
        case SortRole:
            if (column == Variant) return model::toQString(variant.variant);
            return {};
        case Qt::ToolTipRole:
            return tr("Not run: %1").arg(QString::fromStdString(variant.reason));
        case Qt::ForegroundRole:
            return kNotRunColor;
        case Qt::TextAlignmentRole:
            if (column == Variant || column == Check)
                return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
    }
}

QVariant VariantResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (static_cast<std::size_t>(index.row()) >= runs_.size())
        return notRunData(notRun_.at(static_cast<std::size_t>(index.row()) - runs_.size()),
                          index.column(), role);
    const model::VariantResult& run = runs_.at(index.row());
    switch (role) {
        case Qt::DisplayRole:
            return display(index.row(), index.column());
        case SortRole:
            return sortValue(index.row(), index.column());
        case Qt::ToolTipRole:
            return toolTip(index.row(), index.column());
        case Qt::ForegroundRole:
            if (index.column() == Check) return run.check.ok ? kOkColor : kFailColor;
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
        case RequestedBytes:
            return tr("Requested bytes");
        case DramBytes:
            return tr("DRAM bytes");
        case TimeMs:
            return tr("Time (ms)");
        case GBps:
            return model::rateColumnTitle(traffic_);
        case Tflops:
            return tr("Useful TFLOP/s");
        case RooflinePercent:
            return model::rooflineColumnTitle(traffic_);
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
    for (const model::VariantResult& run : recording.runs)
        for (const KernelResult& kernel : run.kernels)
            rows_.push_back({model::toQString(run.variant), kernel});
    endResetModel();
}

void KernelResultsModel::appendRun(const model::VariantResult& run) {
    if (run.kernels.empty()) return;
    const int first = static_cast<int>(rows_.size());
    beginInsertRows({}, first, first + static_cast<int>(run.kernels.size()) - 1);
    for (const KernelResult& kernel : run.kernels)
        rows_.push_back({model::toQString(run.variant), kernel});
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
    const KernelResult& kernel = row.kernel;
    if (role == Qt::TextAlignmentRole)
        return index.column() <= Kernel ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && kernel.resources.known && index.column() == Occupancy)
        return tr("block %1 threads, grid %2 blocks")
            .arg(kernel.resources.blockSize)
            .arg(kernel.resources.gridSize);
    if (role == Qt::ToolTipRole && !kernel.resources.known && index.column() >= Registers)
        return tr("compiler resources exist only for CUDA kernels");
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Variant:
            return row.variant;
        case Kernel:
            return QString::fromStdString(kernel.name);
        case TimeMs:
            return model::formatMilliseconds(kernel.timeMs);
        case BytesRead:
            return model::formatBytes(kernel.modelBytesRead);
        case BytesWritten:
            return model::formatBytes(kernel.modelBytesWritten);
        case Registers:
            return kernel.resources.known ? QString::number(kernel.resources.registersPerThread)
                                          : notKnown();
        case SharedBytes:
            return kernel.resources.known ? model::formatBytes(kernel.resources.sharedBytesPerBlock)
                                          : notKnown();
        case LocalBytes:
            return kernel.resources.known ? model::formatBytes(kernel.resources.localBytesPerThread)
                                          : notKnown();
        case Occupancy:
            return kernel.resources.known
                       ? model::formatPercent(kernel.resources.theoreticalOccupancy)
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
