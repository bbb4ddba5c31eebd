#include "model/fusion_counterparts.h"

#include <optional>

#include "model/format.h"
#include "model/measured_counts.h"
#include "tiles/tile_model.h"

namespace fusescope::model {
namespace {

// The L2 counts requests in sectors of 32 bytes.
constexpr double kSectorBytes = 32.0;
// A smaller gap between two medians is within their run-to-run spread: not called slower.
constexpr double kSlowerBy = 0.01;
// A loss up to this ratio reads best in percent, a larger one as a factor.
constexpr double kPercentBelow = 1.25;
// More L2 write requests than bytes written by this factor: stores that write sectors in parts.
constexpr double kSplitStores = 1.1;

const KernelResult* kernelNamed(const VariantResult& run, const std::string& name) {
    for (const KernelResult& kernel : run.kernels)
        if (kernel.name == name && kernel.timeMs > 0) return &kernel;
    return nullptr;
}

// "7.7%" for a small loss, "2.00x" for a large one.
QString slowerBy(double ratio) {
    return ratio < kPercentBelow ? formatPercent(ratio - 1.0) : formatRatioTwoDecimals(ratio);
}

// L2 write requests over the bytes the kernel writes; absent without the counters.
std::optional<double> writeRequestRatio(const KernelResult& kernel) {
    if (!measured(kernel, &KernelCounters::l2SectorsWritten) || kernel.modelBytesWritten == 0)
        return std::nullopt;
    return *measured(kernel, &KernelCounters::l2SectorsWritten) * kSectorBytes /
           static_cast<double>(kernel.modelBytesWritten);
}

// The buffers the registry says the kernel writes, "h" (or "g_u_h, out"); empty if none.
QString writtenBuffers(const VariantSpec& variant, const Problem& problem,
                       const std::string& kernel) {
    QStringList names;
    for (const KernelSpec& spec : variant.kernelsFor(problem))
        if (spec.name == kernel)
            for (const BufferTraffic& buffer : spec.traffic.buffers)
                if (buffer.bytesWritten > 0) names << QString::fromStdString(buffer.buffer);
    return names.join(QStringLiteral(", "));
}

struct KernelPair {
    const KernelResult* fused = nullptr;
    QVector<const KernelResult*> others;
    double othersMs = 0.0;
};

// "its gemm_gate_up_silu takes 190 µs, merged_gate_up's gemm_gate_up 160 µs plus silu_mul 12.0 µs"
QString pairText(const KernelPair& pair, const QString& other) {
    QStringList theirs;
    for (const KernelResult* kernel : pair.others)
        theirs << QStringLiteral("%1 %2").arg(QString::fromStdString(kernel->name),
                                              formatDuration(kernel->timeMs));
    return QStringLiteral("its %1 takes %2, %3's %4")
        .arg(QString::fromStdString(pair.fused->name), formatDuration(pair.fused->timeMs), other,
             theirs.join(QStringLiteral(" plus ")));
}

// What the run measured of a kernel: a store pattern that writes sectors in parts (with its
// counterparts' for comparison, where counted), and where it takes longer than its counterparts
// together, a grid that leaves multiprocessors idle and its register cost.
QString measuredCause(const VariantSpec& variant, const VariantResult& fused,
                      const KernelPair& pair, int multiprocessors) {
    const bool slower = pair.fused->timeMs > pair.othersMs;
    QStringList parts;
    const std::optional<double> ratio = writeRequestRatio(*pair.fused);
    // A pattern its counterparts share (a library GEMM's own workspace writes) is no cause.
    bool ownPattern = ratio && *ratio > kSplitStores;
    for (const KernelResult* other : pair.others)
        if (const std::optional<double> otherRatio = writeRequestRatio(*other))
            ownPattern = ownPattern && *ratio > kSplitStores * *otherRatio;
    if (ownPattern) {
        const QString buffers = writtenBuffers(variant, fused.problem, pair.fused->name);
        const QString written = buffers.isEmpty()
                                    ? QStringLiteral("the bytes it writes")
                                    : QStringLiteral("the bytes of %1 it writes").arg(buffers);
        QString part =
            QStringLiteral("%1 asks the L2 for %2 %3 (%4 of write requests for %5)")
                .arg(QString::fromStdString(pair.fused->name), formatRatioTwoDecimals(*ratio),
                     written,
                     formatBytes(quint64(*measured(*pair.fused, &KernelCounters::l2SectorsWritten) *
                                         kSectorBytes)),
                     formatBytes(pair.fused->modelBytesWritten));
        QStringList theirs;
        for (const KernelResult* other : pair.others)
            if (const std::optional<double> otherRatio = writeRequestRatio(*other))
                theirs << QStringLiteral("%1 for %2")
                              .arg(formatRatioTwoDecimals(*otherRatio),
                                   QString::fromStdString(other->name));
        if (!theirs.isEmpty()) part += QStringLiteral(", against ") + theirs.join(", ");
        parts << part;
    }
    const int blocks = pair.fused->resources.gridSize;
    if (slower && blocks > 0 && blocks < multiprocessors)
        parts << QStringLiteral("%1 runs %2")
                     .arg(QString::fromStdString(pair.fused->name),
                          QString::fromStdString(tiles::gridWords(
                              static_cast<std::uint64_t>(blocks), multiprocessors, 0)));
    if (slower && pair.fused->resources.known && pair.fused->resources.registersPerThread > 0) {
        QString part =
            QStringLiteral("%1 holds %2 registers a thread, a theoretical occupancy of %3")
                .arg(QString::fromStdString(pair.fused->name))
                .arg(pair.fused->resources.registersPerThread)
                .arg(formatPercent(pair.fused->resources.theoreticalOccupancy));
        if (pair.fused->resources.localBytesPerThread > 0)
            part += QStringLiteral(", and spills %1 bytes a thread to local memory")
                        .arg(pair.fused->resources.localBytesPerThread);
        parts << part;
    }
    return parts.join(QStringLiteral("; "));
}

QString againstOne(const VariantSpec& variant, const VariantResult& fused,
                   const VariantResult& other, const VariantCounterparts& counterparts,
                   bool comparedAlready, int multiprocessors, QStringList& said) {
    QVector<KernelPair> pairs;
    for (const KernelCounterparts& declared : counterparts.kernels) {
        KernelPair pair;
        pair.fused = kernelNamed(fused, declared.kernel);
        if (!pair.fused) continue;
        for (const std::string& name : declared.counterparts)
            if (const KernelResult* kernel = kernelNamed(other, name)) {
                pair.others << kernel;
                pair.othersMs += kernel->timeMs;
            }
        if (pair.others.size() == static_cast<qsizetype>(declared.counterparts.size()))
            pairs << pair;
    }
    QStringList sides, causes;
    for (const KernelPair& pair : pairs) {
        sides << pairText(pair, toQString(other.variant));
        // Said once: the same kernel beside a second variant has the same measurements.
        if (const QString cause = measuredCause(variant, fused, pair, multiprocessors);
            !cause.isEmpty() && !said.contains(cause)) {
            causes << cause;
            said << cause;
        }
    }
    // The verdict has given the two times already where it compared the two.
    QString text = comparedAlready
                       ? QStringLiteral("Kernel by kernel against %1").arg(toQString(other.variant))
                       : QStringLiteral("%1 is %2 slower than %3 (%4 against %5)")
                             .arg(toQString(fused.variant), slowerBy(fused.timeMs / other.timeMs),
                                  toQString(other.variant), formatDuration(fused.timeMs),
                                  formatDuration(other.timeMs));
    if (sides.isEmpty()) return text + QLatin1Char('.');
    text += QStringLiteral(": ") + sides.join(QStringLiteral("; ")) + QLatin1Char('.');
    if (!causes.isEmpty()) text += QLatin1Char(' ') + causes.join(QStringLiteral("; ")) + '.';
    return text;
}

}  // namespace

const VariantResult* timedRunOf(const Recording& recording, const std::string& variant) {
    for (const VariantResult& run : recording.runs)
        if (run.variant == variant && run.timeMs > 0) return &run;
    return nullptr;
}

QStringList slowerThanCounterparts(const Recording& recording, const VariantSpec& variant,
                                   const VariantResult& fused, const std::string& compared) {
    QStringList sentences, said;
    for (const VariantCounterparts& counterparts : variant.counterparts) {
        const VariantResult* other = timedRunOf(recording, counterparts.variant);
        if (!other || fused.timeMs <= other->timeMs * (1.0 + kSlowerBy)) continue;
        sentences << againstOne(variant, fused, *other, counterparts,
                                counterparts.variant == compared, recording.device.multiprocessors,
                                said);
    }
    return sentences;
}

}  // namespace fusescope::model
