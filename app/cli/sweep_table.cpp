#include "cli/sweep_table.h"

#include <QStringList>

#include "cli/text_table.h"
#include "model/format.h"
#include "model/sweep_chart_conversion.h"
#include "pipelines/registry.h"

namespace fusescope::cli {
namespace {

// What the model says one unit of the swept size moves: per element where every kernel sweeps
// whole arrays, otherwise the bytes of the smallest problem (the MLP moves its weights at M = 1).
QString bytesPerSize(const SweepSeries& series, const PipelineSpec* pipeline,
                     const QString& sizeName) {
    if (!pipeline || pipeline->countsPasses)
        return QStringLiteral("%1 bytes per element by the pass model")
            .arg(series.bytesPerElement, 0, 'g', 6);
    return QStringLiteral("%1 at %2 = 1 by the model")
        .arg(model::formatBytes(series.bytesPerElement), sizeName);
}

QString regimeCell(const SweepSeries& series, const SweepPoint& point) {
    const std::optional<Regime> regime = series.regimeAt(point);
    return regime ? QString::fromLatin1(regimeName(*regime)) : QStringLiteral("-");
}

QString residualCell(const SweepSeries& series, const SweepPoint& point) {
    const std::optional<double> residual = series.residualAt(point);
    if (!residual) return QStringLiteral("-");
    return QStringLiteral("%1%2")
        .arg(*residual >= 0 ? "+" : "")
        .arg(model::formatPercent(*residual));
}

QString fitLine(const SweepSeries& series, const QString& sizeName) {
    if (!series.fit)
        return QStringLiteral("fit: none, %1").arg(QString::fromStdString(series.fitError));
    const LaunchBandwidthFit& fit = *series.fit;
    QString overhead = fit.overheadClamped
                           ? QStringLiteral(
                                 "overhead ~0 per launch (the fit gave a negative "
                                 "overhead, clamped)")
                           : QStringLiteral("%1 µs per launch").arg(fit.overheadUs, 0, 'f', 3);
    QString line = QStringLiteral("fit: %1, bandwidth %2 GB/s")
                       .arg(overhead, model::formatGBps(fit.bandwidthGBps));
    if (fit.boundaryN > 0)
        line += QStringLiteral(", regimes meet at %1 ≈ %2")
                    .arg(sizeName, model::formatCount(static_cast<quint64>(fit.boundaryN + 0.5)));
    line += QStringLiteral(" (rms residual %1 over %2 sizes")
                .arg(model::formatPercent(fit.rmsRelativeResidual))
                .arg(fit.samples);
    if (fit.samplesSetAside > 0)
        line += QStringLiteral("; %1 set aside as not following one bandwidth, see 'vs fit'")
                    .arg(fit.samplesSetAside);
    return line + QLatin1Char(')');
}

}  // namespace

QString renderSweep(const SweepReport& report, const QString& dataSource) {
    QStringList lines;
    const PipelineSpec* pipeline = findPipeline(report.pipeline);
    lines << QStringLiteral("%1 · size sweep · %2")
                 .arg(QString::fromStdString(report.pipeline),
                      QString::fromStdString(pipeline ? pipeline->formula : std::string()));
    QStringList details{
        QString::fromStdString(report.device.name),
        QStringLiteral("backend %1").arg(QString::fromLatin1(backendName(report.device.backend))),
    };
    details << model::sweptProblemWords(pipeline, report.vectorWidth)
            << QStringLiteral("median of %1 repeats").arg(report.repeats)
            << QStringLiteral("data: %1").arg(dataSource);
    lines << details.join(QStringLiteral(" · "));
    const QString sizeName =
        pipeline ? QString::fromStdString(pipeline->sizeDimension) : QStringLiteral("size");
    const std::uint64_t l2 = model::sizeOneArrayFills(pipeline, report.device.l2CacheBytes);
    if (l2 > 0)
        lines << QStringLiteral("L2 %1 MiB: one array fits up to N = %2 (\"in L2\" below)")
                     .arg(static_cast<double>(report.device.l2CacheBytes) / (1024.0 * 1024.0), 0,
                          'g', 4)
                     .arg(model::formatCount(l2));
    lines << QStringLiteral(
        "model: time = launches x overhead + bytes / bandwidth, fitted per variant on relative "
        "residuals, robustly (sizes one bandwidth cannot describe are set aside)");

    using Align = TextTable::Align;
    for (const SweepSeries& series : report.series) {
        lines << QString()
              << QStringLiteral("%1 (%2 launch%3, %4)")
                     .arg(QString::fromStdString(series.variant))
                     .arg(series.launches)
                     .arg(series.launches == 1 ? "" : "es")
                     .arg(bytesPerSize(series, pipeline, sizeName));
        TextTable table;
        table.addColumns({{sizeName, Align::Right},
                          {QStringLiteral("bytes"), Align::Right},
                          {QStringLiteral("time"), Align::Right},
                          {QStringLiteral("GB/s"), Align::Right},
                          {QStringLiteral("copy GB/s"), Align::Right},
                          {QStringLiteral("vs fit"), Align::Right},
                          {QStringLiteral("regime"), Align::Left},
                          {QStringLiteral("cache"), Align::Left},
                          {QStringLiteral("check"), Align::Left}});
        for (const SweepPoint& point : series.points)
            table.addRow(
                {model::formatCount(point.n), model::formatBytes(point.bytes),
                 model::formatDuration(point.timeMs), model::formatGBps(point.effectiveGBps()),
                 model::formatGBps(point.rooflineGBps), residualCell(series, point),
                 regimeCell(series, point),
                 l2 > 0 && point.n <= l2 ? QStringLiteral("in L2") : QString(),
                 point.checkOk ? QStringLiteral("OK")
                               : QStringLiteral("FAIL (max rel. error %1)")
                                     .arg(model::formatRelativeError(point.maxRelativeError))});
        lines << table.render(QStringLiteral("  "));
        lines << QStringLiteral("  ") + fitLine(series, sizeName);
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace fusescope::cli
