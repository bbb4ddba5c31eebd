#include "cli/tile_sweep_table.h"

#include <algorithm>

#include "cli/text_table.h"
#include "model/format.h"
#include "model/tile_choices.h"
#include "model/tile_peer_comparison.h"
#include "pipelines/registry.h"

namespace fusescope::cli {
namespace {

QString tableText(const std::string& value) {
    return QString::fromStdString(value);
}

QString timeCell(const tiles::TimingSpread& t) {
    return QStringLiteral("%1 [%2-%3]")
        .arg(model::formatMilliseconds(t.medianMs), model::formatMilliseconds(t.q1Ms),
             model::formatMilliseconds(t.q3Ms));
}

}  // namespace

QString roofText(double value, const char* unit, const std::string& source) {
    if (value <= 0) return QStringLiteral("not known");
    return QStringLiteral("%1 %2 (%3)")
        .arg(value, 0, 'f', 0)
        .arg(QLatin1String(unit), tableText(source));
}

QStringList renderTileSweep(const tiles::TileSweep& sweep) {
    QStringList lines;
    const std::vector<const TuningSpec*> tunings = model::variantTunings(sweep.request.base);
    QStringList tuningTitles;
    for (const TuningSpec* tuning : tunings) {
        const std::string& name = tuning->name;
        tuningTitles << tableText(name.substr(name.find('_') + 1));
    }
    TextTable table;
    table.addColumns({{QStringLiteral("tiles (%1)").arg(tuningTitles.join(QLatin1Char(' '))),
                       TextTable::Align::Left},
                      {QStringLiteral("ms median [IQR]"), TextTable::Align::Right},
                      {QStringLiteral("GB/s"), TextTable::Align::Right},
                      {QStringLiteral("TFLOP/s"), TextTable::Align::Right},
                      {QStringLiteral("regs"), TextTable::Align::Right},
                      {QStringLiteral("spill B"), TextTable::Align::Right},
                      {QStringLiteral("smem KiB"), TextTable::Align::Right},
                      {QStringLiteral("blk/SM"), TextTable::Align::Right},
                      {QStringLiteral("check"), TextTable::Align::Left},
                      {QStringLiteral("rank"), TextTable::Align::Left},
                      {QStringLiteral("limiter"), TextTable::Align::Left}});
    // The peer's time at the same tiles and ours over it, where the sweep has a peer.
    // Its compiled kernel's resources too, where the sweep records them.
    const bool peerKernels = sweep.peer && std::any_of(sweep.cells.begin(), sweep.cells.end(),
                                                       [](const tiles::TileCell& cell) {
                                                           return cell.peerKernel.has_value();
                                                       });
    if (sweep.peer)
        table.addColumns(
            {{QStringLiteral("%1 ms").arg(tableText(sweep.peer->name)), TextTable::Align::Right},
             {QStringLiteral("÷ peer"), TextTable::Align::Right}});
    if (peerKernels) table.addColumns({{QStringLiteral("peer kernel"), TextTable::Align::Left}});
    const auto peerCells = [&](const tiles::TileCell& cell) {
        if (!sweep.peer) return QStringList();
        const std::optional<double> ratio = model::peerRatio(cell);
        QStringList values{
            cell.peerTime ? model::formatMilliseconds(cell.peerTime->medianMs)
                          : QStringLiteral("-"),
            ratio ? model::formatRatioTwoDecimals(*ratio) +
                        (*ratio > model::kPeerParRatio ? QStringLiteral(" *") : QString())
                  : QString()};
        if (peerKernels)
            values << (cell.peerKernel ? model::peerKernelShort(*cell.peerKernel) : QString());
        return values;
    };
    for (const tiles::TileCell& cell : sweep.cells) {
        const tiles::ResourceReport& r = cell.report;
        QStringList values;
        for (const TuningSpec* tuning : tunings)
            values << QString::number(r.configuration.problem.tuningValue(tuning->name));
        const QString tilesText = values.join(QLatin1Char(' '));
        if (r.refusal || !cell.measured) {
            table.addRow(
                QStringList{tilesText, QStringLiteral("-"), QString(), QString(), QString(),
                            QString(),
                            QString::number(
                                static_cast<double>(r.launch.dynamicSharedBytes) / 1024.0, 'f', 0),
                            QString(), QString(), QStringLiteral("refused"),
                            r.refusal ? tableText(r.refusal->reason) : tableText(cell.error)} +
                peerCells(cell));
            continue;
        }
        const QString known = r.compiled.known ? QString() : QStringLiteral("?");
        table.addRow(
            QStringList{
                tilesText, timeCell(cell.time), model::formatGBps(cell.gbps),
                QString::number(cell.tflops, 'f', 1),
                r.compiled.known ? QString::number(r.compiled.registersPerThread) : known,
                r.compiled.known ? QString::number(r.compiled.localBytesPerThread) : known,
                QString::number(static_cast<double>(r.launch.dynamicSharedBytes) / 1024.0, 'f', 0),
                r.compiled.known ? QString::number(r.compiled.blocksPerMultiprocessor) : known,
                cell.checkOk ? QStringLiteral("ok") : QStringLiteral("FAIL"),
                cell.best           ? QStringLiteral("BEST")
                : cell.tiedWithBest ? QStringLiteral("tie")
                                    : QString(),
                cell.limiters.empty() ? QString() : tableText(cell.limiters.front())} +
            peerCells(cell));
    }
    lines << table.render();
    lines << QString();
    for (const tiles::ReferenceTiming& reference : sweep.references)
        lines << QStringLiteral("reference %1: %2 ms%3")
                     .arg(tableText(reference.variant), timeCell(reference.time),
                          reference.checkOk ? QString() : QStringLiteral(" (check FAILED)"));
    lines << QStringLiteral("copy roof %1; compute roof %2")
                 .arg(roofText(sweep.limits.copyBandwidthGBps, "GB/s",
                               sweep.limits.copyBandwidthSource),
                      roofText(sweep.limits.computeTflops, "TFLOP/s", sweep.limits.computeSource));
    int measured = 0, refused = 0;
    for (const tiles::TileCell& cell : sweep.cells) (cell.measured ? measured : refused)++;
    lines << QStringLiteral(
                 "%1 configurations: %2 measured, %3 refused; %4 modules compiled by %5, %6 "
                 "from the cache; compiling %7 s, whole sweep %8 s%9")
                 .arg(sweep.cells.size())
                 .arg(measured)
                 .arg(refused)
                 .arg(sweep.modulesCompiled)
                 .arg(tableText(sweep.compilerVersion))
                 .arg(sweep.modulesCached)
                 .arg(sweep.compileWallMs / 1000.0, 0, 'f', 1)
                 .arg(sweep.totalWallMs / 1000.0, 0, 'f', 1)
                 .arg(sweep.cancelled ? QStringLiteral(" (cancelled)") : QString());
    if (const QString peer = model::peerSummary(sweep); !peer.isEmpty()) {
        lines << peer;
        lines << QStringLiteral("%1's times: %2")
                     .arg(tableText(sweep.peer->name), tableText(sweep.peer->source));
    }
    return lines;
}

}  // namespace fusescope::cli
