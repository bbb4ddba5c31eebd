#include "model/tile_peer_comparison.h"

#include <QObject>
#include <QStringList>
#include <utility>

#include "model/format.h"
#include "model/tile_choices.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

QString peerWords(const std::string& text) {
    return QString::fromStdString(text);
}

bool ownPeerComparableTime(const tiles::TileCell& cell) {
    return cell.measured && cell.checkOk && cell.time.medianMs > 0;
}

}  // namespace

std::optional<double> peerRatio(const tiles::TileCell& cell) {
    if (!ownPeerComparableTime(cell) || !cell.peerTime || !(cell.peerTime->medianMs > 0))
        return std::nullopt;
    return cell.time.medianMs / cell.peerTime->medianMs;
}

std::optional<TilePeerComparison> comparePeer(const tiles::TileSweep& sweep) {
    if (!sweep.peer) return std::nullopt;
    TilePeerComparison comparison;
    std::vector<double> ratios;
    for (int index = 0; index < static_cast<int>(sweep.cells.size()); ++index) {
        const tiles::TileCell& cell = sweep.cells[static_cast<std::size_t>(index)];
        if (cell.best) comparison.bestCell = index;
        if (cell.peerTime && cell.peerTime->medianMs > 0 &&
            (comparison.peerBestCell < 0 ||
             cell.peerTime->medianMs <
                 sweep.cells[static_cast<std::size_t>(comparison.peerBestCell)].peerTime->medianMs))
            comparison.peerBestCell = index;
        const std::optional<double> ratio = peerRatio(cell);
        if (!ratio) continue;
        ratios.push_back(*ratio);
        if (*ratio <= kPeerParRatio) ++comparison.withinRatio;
        if (*ratio > comparison.worstRatio) {
            comparison.worstRatio = *ratio;
            comparison.worstCell = index;
        }
    }
    if (ratios.empty()) return std::nullopt;
    comparison.bothRan = static_cast<int>(ratios.size());
    // spreadOf takes any values; its median is named for times.
    comparison.medianRatio = tiles::spreadOf(std::move(ratios)).medianMs;
    // The peer's ties by the sweep's own rule: intervals overlapping its best one's.
    const tiles::TimingSpread& peerBest =
        *sweep.cells[static_cast<std::size_t>(comparison.peerBestCell)].peerTime;
    for (int index = 0; index < static_cast<int>(sweep.cells.size()); ++index) {
        const tiles::TileCell& cell = sweep.cells[static_cast<std::size_t>(index)];
        const bool ours = (cell.best || cell.tiedWithBest) && ownPeerComparableTime(cell);
        const bool theirs = cell.peerTime && tiles::overlaps(*cell.peerTime, peerBest);
        if (ours && theirs) comparison.sharedTies.push_back(index);
    }
    return comparison;
}

QString tilesShort(const tiles::TileConfiguration& configuration) {
    QStringList values;
    for (const TuningSpec* tuning : variantTunings(configuration))
        values << QString::number(configuration.problem.tuningValue(tuning->name));
    return values.join(QLatin1Char('/'));
}

QString tilesOrder(const tiles::TileConfiguration& configuration) {
    // "BLOCK_M/N/H/I": a prefix the first title shares with the next ones is said once.
    std::vector<std::string> titles;
    for (const TuningSpec* tuning : variantTunings(configuration)) titles.push_back(tuning->title);
    return peerWords(titlesSharingPrefix(titles));
}

QString peerSummary(const tiles::TileSweep& sweep) {
    const std::optional<TilePeerComparison> comparison = comparePeer(sweep);
    if (!comparison) return {};
    const auto cellAt = [&](int index) -> const tiles::TileCell& {
        return sweep.cells[static_cast<std::size_t>(index)];
    };
    const auto tilesAt = [&](int index) { return tilesShort(cellAt(index).report.configuration); };
    const QString peer = peerWords(sweep.peer->name);
    // Parts joined by " · ", where a caption too narrow for the whole wraps.
    QStringList parts;
    parts << QObject::tr("%1 at the same tiles (%2): %3 of %4 within %5 its time")
                 .arg(peer, tilesOrder(sweep.request.base))
                 .arg(comparison->withinRatio)
                 .arg(comparison->bothRan)
                 .arg(formatRatioTwoDecimals(kPeerParRatio));
    parts << QObject::tr("median %1, worst %2 at %3")
                 .arg(formatRatioTwoDecimals(comparison->medianRatio),
                      formatRatioTwoDecimals(comparison->worstRatio),
                      tilesAt(comparison->worstCell));
    if (comparison->bestCell >= 0 && ownPeerComparableTime(cellAt(comparison->bestCell))) {
        const double ours = cellAt(comparison->bestCell).time.medianMs;
        const double theirs = cellAt(comparison->peerBestCell).peerTime->medianMs;
        parts << QObject::tr("best %1 %2 ms, %3's %4 %5 ms (%6)")
                     .arg(tilesAt(comparison->bestCell), formatMilliseconds(ours), peer,
                          tilesAt(comparison->peerBestCell), formatMilliseconds(theirs),
                          formatRatioTwoDecimals(ours / theirs));
    }
    QStringList shared;
    for (int index : comparison->sharedTies) shared << tilesAt(index);
    if (!shared.isEmpty()) {
        parts << QObject::tr("tied in both: %1").arg(shared.join(QStringLiteral(", ")));
        return parts.join(QStringLiteral(" · "));
    }
    parts << QObject::tr("no configuration best or tied in both");
    // How far apart the two answers are: each best tile, timed by the other kernel.
    const int ourBest = comparison->bestCell, theirBest = comparison->peerBestCell;
    if (ourBest >= 0 && ownPeerComparableTime(cellAt(ourBest)) &&
        ownPeerComparableTime(cellAt(theirBest))) {
        parts << QObject::tr("at %1's best this kernel takes %2 its best")
                     .arg(peer, formatRatioTwoDecimals(cellAt(theirBest).time.medianMs /
                                                       cellAt(ourBest).time.medianMs));
        if (const std::optional<tiles::TimingSpread>& atOurs = cellAt(ourBest).peerTime)
            parts << QObject::tr("at this kernel's best %1 takes %2 its best")
                         .arg(peer, formatRatioTwoDecimals(atOurs->medianMs /
                                                           cellAt(theirBest).peerTime->medianMs));
    }
    return parts.join(QStringLiteral(" · "));
}

QString peerCellLine(const tiles::TileCell& cell, const tiles::TileSweep& sweep) {
    if (!sweep.peer) return {};
    const QString peer = peerWords(sweep.peer->name);
    if (!cell.peerTime)
        return cell.peerNote.empty() ? QObject::tr("%1: no time at these tiles").arg(peer)
                                     : QObject::tr("%1: %2").arg(peer, peerWords(cell.peerNote));
    QString line = QObject::tr("%1 at these tiles: %2 ms")
                       .arg(peer, formatMilliseconds(cell.peerTime->medianMs));
    if (const std::optional<double> ratio = peerRatio(cell))
        line += QObject::tr("; this kernel takes %1 its time%2")
                    .arg(formatRatioTwoDecimals(*ratio),
                         *ratio > kPeerParRatio
                             ? QObject::tr(" (over %1)").arg(formatRatioTwoDecimals(kPeerParRatio))
                             : QString());
    return line;
}

QString peerKernelLine(const tiles::TileCell& cell, const tiles::TileSweep& sweep) {
    if (!sweep.peer || !cell.peerKernel) return {};
    const tiles::PeerKernel& kernel = *cell.peerKernel;
    const QString blocks = kernel.blocksPerMultiprocessor > 0
                               ? QObject::tr("%1 blocks per SM").arg(kernel.blocksPerMultiprocessor)
                               : QObject::tr("blocks per SM not known");
    return QObject::tr(
               "%1's kernel: %2 threads per block · registers %3 per thread · spills %4 B "
               "per thread · shared memory %5 · %6")
        .arg(peerWords(sweep.peer->name))
        .arg(kernel.threadsPerBlock)
        .arg(kernel.registersPerThread)
        .arg(kernel.localBytesPerThread)
        .arg(formatBytes(kernel.sharedBytes), blocks);
}

QString peerKernelShort(const tiles::PeerKernel& kernel) {
    QString text =
        QStringLiteral("%1 thr %2 reg").arg(kernel.threadsPerBlock).arg(kernel.registersPerThread);
    if (kernel.localBytesPerThread > 0)
        text += QStringLiteral(" %1 B spill").arg(kernel.localBytesPerThread);
    text += kernel.blocksPerMultiprocessor > 0
                ? QStringLiteral(" %1/SM").arg(kernel.blocksPerMultiprocessor)
                : QStringLiteral(" ?/SM");
    return text;
}

}  // namespace fusescope::model
