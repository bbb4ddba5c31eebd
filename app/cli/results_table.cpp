#include "cli/results_table.h"

#include <QSet>
#include <cmath>

#include "cli/text_table.h"
#include "model/captions.h"
#include "model/count_spread_text.h"
#include "model/format.h"
#include "model/fusion_verdict.h"
#include "model/measured_counts.h"
#include "model/measurement_gaps.h"
#include "model/run_traffic.h"
#include "pipelines/registry.h"

namespace fusescope::cli {

using namespace fusescope::model;

namespace {

QString pipelineLine(const QString& name) {
    const PipelineSpec* pipeline = findPipeline(name.toStdString());
    if (!pipeline) return name;
    return QStringLiteral("%1 · %2 · %3")
        .arg(name, QString::fromStdString(pipeline->title),
             QString::fromStdString(pipeline->formula));
}

QString checkCell(const VariantResult& run) {
    if (run.check.ok) return QStringLiteral("OK");
    if (run.check.unwrittenElements > 0)
        return QStringLiteral("FAIL (%1 unwritten)").arg(formatCount(run.check.unwrittenElements));
    return QStringLiteral("FAIL");
}

}  // namespace

QStringList resultsHeader(const Recording& recording) {
    QStringList lines;
    QStringList pipelinesSeen;
    for (const VariantResult& run : recording.runs)
        if (!pipelinesSeen.contains(model::toQString(run.pipeline)))
            pipelinesSeen << model::toQString(run.pipeline);
    for (const QString& pipeline : pipelinesSeen) lines << pipelineLine(pipeline);
    lines << captionFor(recording);

    QStringList details;
    details
        << QStringLiteral("backend %1").arg(QLatin1String(backendName(recording.device.backend)));
    if (recording.roofline.timeMs > 0)
        details << QStringLiteral("copy roofline %1 GB/s (%2 in %3)")
                       .arg(formatGBps(recording.roofline.gbps()),
                            formatBytes(recording.roofline.bytesMoved),
                            formatDuration(recording.roofline.timeMs));
    if (recording.computeRoof && recording.computeRoof->timeMs > 0)
        details << QStringLiteral("compute roof %1 TFLOP/s (%2 in %3)")
                       .arg(recording.computeRoof->tflops(), 0, 'f', 0)
                       .arg(QString::fromStdString(recording.computeRoof->description),
                            formatDuration(recording.computeRoof->timeMs));
    if (!recording.runs.empty() && !recording.runs.front().repeatTimesMs.empty())
        details << QStringLiteral("time: median of %1 repeats, the kernels back to back")
                       .arg(recording.runs.front().repeatTimesMs.size());
    lines << details.join(QStringLiteral(" · "));
    if (!recording.runs.empty())
        lines << QStringLiteral("check: against the CPU reference in double, %1")
                     .arg(checkScope(recording.runs.front()));
    if (!recording.counterStatus.empty())
        lines
            << QStringLiteral("counters: %1").arg(QString::fromStdString(recording.counterStatus));
    for (const model::VariantNotRun& variant : recording.variantsNotRun)
        lines << QStringLiteral("not run: %1").arg(QString::fromStdString(variant.reason));
    return lines;
}

namespace {

// The word shared by every run's DRAM figure, for the column's header; empty where they differ.
QString sharedDramWord(const QVector<RunTraffic>& traffic) {
    QString shared;
    for (const RunTraffic& run : traffic) {
        const QString word = dramSourceWord(run.dramSource);
        if (!shared.isEmpty() && shared != word) return {};
        shared = word;
    }
    return shared;
}

bool anyDram(const QVector<RunTraffic>& traffic) {
    for (const RunTraffic& run : traffic)
        if (run.hasDram()) return true;
    return false;
}

bool anyExtraFlops(const QVector<RunTraffic>& traffic) {
    for (const RunTraffic& run : traffic)
        if (run.executesExtraFlops()) return true;
    return false;
}

QString tflopsCell(double flops, double tflops) {
    return flops > 0 ? QString::number(tflops, 'g', 3) : QStringLiteral("-");
}

}  // namespace

QStringList resultsRows(const Recording& recording) {
    QVector<RunTraffic> traffic;
    for (const VariantResult& run : recording.runs) traffic.push_back(runTraffic(run));
    const bool dram = anyDram(traffic);
    const QString dramWord = sharedDramWord(traffic);
    const bool executedColumn = anyExtraFlops(traffic);

    using Align = TextTable::Align;
    TextTable table;
    table.addColumn(QStringLiteral("variant"), Align::Left);
    table.addColumn(QStringLiteral("kernels"), Align::Right);
    table.addColumn(QStringLiteral("passes"), Align::Right);
    table.addColumn(QStringLiteral("requested bytes"), Align::Right);
    if (dram)
        table.addColumn(dramWord.isEmpty() ? QStringLiteral("DRAM bytes")
                                           : QStringLiteral("DRAM bytes (%1)").arg(dramWord),
                        Align::Right);
    table.addColumn(QStringLiteral("time (ms)"), Align::Right);
    // GB/s from DRAM bytes; only where no run has a DRAM figure, the requested bytes, said so.
    table.addColumn(rateColumnTitle(traffic), Align::Right);
    table.addColumn(QStringLiteral("useful TFLOP/s"), Align::Right);
    if (executedColumn) table.addColumn(QStringLiteral("executed TFLOP/s"), Align::Right);
    table.addColumn(rooflineColumnTitle(traffic), Align::Right);
    table.addColumn(QStringLiteral("peak in flight"), Align::Right);
    table.addColumn(QStringLiteral("error"), Align::Right);
    table.addColumn(QStringLiteral("check"), Align::Left);
    for (int r = 0; r < runCount(recording); ++r) {
        const VariantResult& run = recording.runs[r];
        const RunTraffic& t = traffic[r];
        QStringList cells;
        // Passes only where the pipeline counts whole-array sweeps; bytes tell the rest.
        cells << model::toQString(run.variant) << QString::number(run.kernels.size())
              << (run.passesCounted ? QString::number(run.passes) : QStringLiteral("-"))
              << formatBytes(run.modelBytesRead + run.modelBytesWritten);
        if (dram) {
            QString cell = t.hasDram() ? formatBytes(quint64(t.dramBytes)) : QStringLiteral("-");
            if (t.hasDram() && dramWord.isEmpty())
                cell += QStringLiteral(" (%1)").arg(dramSourceWord(t.dramSource));
            cells << cell;
        }
        cells << formatMilliseconds(run.timeMs);
        if (dram)
            cells << (t.hasDram() ? formatGBps(t.dramGBps()) : QStringLiteral("-"));
        else
            cells << formatGBps(t.requestedGBps());
        cells << tflopsCell(t.usefulFlops, t.usefulTflops());
        if (executedColumn) cells << tflopsCell(t.executedFlops, t.executedTflops());
        const std::optional<double> share = rooflineShare(t, recording.roofline);
        cells << (share ? formatPercent(*share) : QStringLiteral("-"))
              << formatBytes(run.peakBytesInFlight) << formatRelativeError(run.check.error)
              << checkCell(run);
        table.addRow(cells);
    }
    return table.render();
}

QStringList trafficLegendLines(const Recording& recording) {
    QVector<RunTraffic> traffic;
    for (const VariantResult& run : recording.runs) traffic.push_back(runTraffic(run));
    QStringList lines;
    if (traffic.isEmpty()) return lines;
    bool reReads = false;
    for (const RunTraffic& run : traffic) reReads = reReads || run.servedOnChipBytes() > 0;
    lines << (reReads ? QStringLiteral("requested bytes: what the kernels ask for by the traffic "
                                       "model, every re-read counted (the L1 and L2 serve most "
                                       "re-reads)")
                      : QStringLiteral("requested bytes: what the kernels ask for by the traffic "
                                       "model"));
    if (anyDram(traffic))
        lines << QStringLiteral(
            "DRAM bytes: measured by the DRAM counters, or the model's distinct bytes (each "
            "buffer once per kernel) where nothing was measured; GB/s and % roofline are DRAM "
            "bytes over the time");
    else
        lines << QStringLiteral(
            "no DRAM figure: GB/s are requested bytes over the time, never "
            "held against the copy roofline");
    if (anyExtraFlops(traffic))
        lines << QStringLiteral(
            "useful TFLOP/s: the reference variant's FLOPs over the time; executed TFLOP/s "
            "include the FLOPs a variant recomputes");
    for (qsizetype r = 0; r < traffic.size(); ++r)
        if (const double onChip = traffic[r].servedOnChipBytes();
            onChip > 0 && traffic[r].dramSource == DramSource::Measured)
            lines << QStringLiteral("%1: %2 requested, %3 from DRAM: %4 re-read from L1/L2")
                         .arg(model::toQString(recording.runs[r].variant),
                              formatBytes(quint64(traffic[r].requestedBytes)),
                              formatBytes(quint64(traffic[r].dramBytes)),
                              formatBytes(quint64(onChip)));
    return lines;
}

QStringList checkFailureLines(const Recording& recording) {
    QStringList lines;
    for (const VariantResult& run : recording.runs) {
        if (run.check.ok) continue;
        QString line = QStringLiteral("check FAILED for %1: %2 %3 (tolerance %4)")
                           .arg(model::toQString(run.variant), model::toQString(run.check.measure),
                                formatRelativeError(run.check.error),
                                formatRelativeError(run.check.tolerance));
        if (run.check.unwrittenElements > 0)
            line +=
                QStringLiteral(", %1 of %2 output elements never written")
                    .arg(formatCount(run.check.unwrittenElements), formatCount(run.outputElements));
        if (const QString where = wrongElementText(run); !where.isEmpty())
            line += QStringLiteral("; ") + where;
        lines << line;
    }
    return lines;
}

namespace {
// Bytes the SMs requested from the L2 (32-byte sectors), or "-" where not measured.
QString l2BytesCell(const std::optional<double>& sectors) {
    return sectors ? formatBytes(static_cast<quint64>(*sectors * 32.0)) : QStringLiteral("-");
}

// " · each count the median of 3 launches, ...", where the counter run counted more than once.
QString countedLaunchesNote(const Recording& recording) {
    const std::optional<std::uint32_t> launches = model::countedLaunchesOf(recording);
    if (!launches) return {};
    return QStringLiteral(
               " · each count the median of %1 launches, DRAM ranges where they moved "
               "more than 3% or 1 MB")
        .arg(*launches);
}
}  // namespace

QStringList measurementRows(const Recording& recording) {
    const QVector<RunGapView> gaps = measurementGaps(recording);
    if (gaps.isEmpty()) return {};
    using Align = TextTable::Align;
    TextTable table;
    table.addColumn(QStringLiteral("variant"), Align::Left);
    table.addColumn(QStringLiteral("kernel"), Align::Left);
    table.addColumn(QStringLiteral("model rd"), Align::Right);
    table.addColumn(QStringLiteral("model wr"), Align::Right);
    table.addColumn(QStringLiteral("DRAM rd"), Align::Right);
    table.addColumn(QStringLiteral("DRAM wr"), Align::Right);
    table.addColumn(QStringLiteral("L1 sect rd"), Align::Right);
    table.addColumn(QStringLiteral("L1 sect wr"), Align::Right);
    table.addColumn(QStringLiteral("L2 req rd"), Align::Right);
    table.addColumn(QStringLiteral("L2 req wr"), Align::Right);
    table.addColumn(QStringLiteral("gap"), Align::Right);
    const auto percentCell = [](const std::optional<double>& percent) {
        return percent ? QStringLiteral("%1%").arg(*percent, 0, 'f', 1) : QStringLiteral("-");
    };
    QStringList reasons;
    for (const VariantResult& run : recording.runs) {
        for (const KernelResult& kernel : run.kernels) {
            if (!kernel.counters) continue;
            const QString name = QString::fromStdString(kernel.name);
            std::optional<double> percent;
            for (const RunGapView& gap : gaps)
                if (gap.variant == model::toQString(run.variant))
                    for (const KernelGapView& view : gap.kernels)
                        if (view.kernel == name) {
                            percent = view.percent;
                            for (const QString& why : view.reasons)
                                reasons << QStringLiteral("%1/%2: %3")
                                               .arg(model::toQString(run.variant), name, why);
                        }
            table.addRow(
                {model::toQString(run.variant), name, formatBytes(kernel.modelBytesRead),
                 formatBytes(kernel.modelBytesWritten),
                 model::bytesWithSpreadText(kernel.counters->dramBytesRead,
                                            kernel.counters->dramReadSpread),
                 model::bytesWithSpreadText(kernel.counters->dramBytesWritten,
                                            kernel.counters->dramWrittenSpread),
                 formatCount(static_cast<quint64>(
                     model::measured(kernel, &KernelCounters::sectorsRead).value_or(0))),
                 formatCount(static_cast<quint64>(
                     model::measured(kernel, &KernelCounters::sectorsWritten).value_or(0))),
                 l2BytesCell(model::measured(kernel, &KernelCounters::l2SectorsRead)),
                 l2BytesCell(model::measured(kernel, &KernelCounters::l2SectorsWritten)),
                 percentCell(percent)});
        }
    }
    QStringList lines;
    lines << QStringLiteral("model beside measurement [%1]%2")
                 .arg(dataSourceLabel(DataSource::Counters), countedLaunchesNote(recording));
    lines << table.render();
    if (!reasons.isEmpty()) {
        lines << QStringLiteral("where model and DRAM differ by more than 10%:");
        for (const QString& reason : reasons) lines << QStringLiteral("  ") + reason;
    }
    return lines;
}

QStringList chainOverlapLines(const Recording& recording) {
    QStringList lines;
    for (const VariantResult& run : recording.runs) {
        // Below a percent the difference is timing noise, not overlap.
        if (run.kernels.size() < 2 || run.timeMs <= 0 ||
            std::abs(run.kernelsApartTimeMs - run.timeMs) < 0.01 * run.timeMs)
            continue;
        const double saved = run.kernelsApartTimeMs - run.timeMs;
        lines
            << QStringLiteral("%1: %2 back to back, %3 with each kernel timed apart (%4)")
                   .arg(model::toQString(run.variant), formatDuration(run.timeMs),
                        formatDuration(run.kernelsApartTimeMs),
                        saved > 0
                            ? QStringLiteral("the kernels overlap by %1").arg(formatDuration(saved))
                            : QStringLiteral("launched back to back it is slower by %1")
                                  .arg(formatDuration(-saved)));
    }
    return lines;
}

QString renderResults(const Recording& recording) {
    QStringList lines = resultsHeader(recording);
    lines << QString();
    lines << resultsRows(recording);
    lines << trafficLegendLines(recording);
    const QStringList overlaps = chainOverlapLines(recording);
    if (!overlaps.isEmpty()) lines << QString() << overlaps;
    if (const QString verdict = fusionVerdict(recording); !verdict.isEmpty())
        lines << QString() << verdict;
    const QStringList measured = measurementRows(recording);
    if (!measured.isEmpty()) lines << QString() << measured;
    const QStringList failures = checkFailureLines(recording);
    if (!failures.isEmpty()) lines << QString() << failures;
    return lines.join(QLatin1Char('\n'));
}

}  // namespace fusescope::cli
