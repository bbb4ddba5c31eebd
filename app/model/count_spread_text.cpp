#include "model/count_spread_text.h"

#include <QCoreApplication>
#include <algorithm>

#include "measure/counted_launches.h"
#include "model/format.h"

namespace fusescope::model {
namespace {

QString bytesText(double bytes) {
    return formatBytes(static_cast<quint64>(bytes + 0.5));
}

}  // namespace

QString bytesWithSpreadText(double medianBytes, const std::optional<CountSpread>& spread) {
    if (!spread || !spreadExceedsTolerance(*spread, medianBytes)) return bytesText(medianBytes);
    return QStringLiteral("%1 (%2–%3)")
        .arg(bytesText(medianBytes), bytesText(spread->low), bytesText(spread->high));
}

QStringList movedCountLines(const VariantResult& run) {
    QStringList lines;
    for (const KernelResult& kernel : run.kernels) {
        if (!kernel.counters || !kernel.counters->countedLaunches) continue;
        const KernelCounters& counters = *kernel.counters;
        const auto add = [&](const QString& what, double median,
                             const std::optional<CountSpread>& spread) {
            if (!spread || !spreadExceedsTolerance(*spread, median)) return;
            lines << QCoreApplication::translate(
                         "CountSpread", "%1: DRAM %2 %3–%4 over %5 counted launches (median %6)")
                         .arg(toQString(kernel.name), what, bytesText(spread->low),
                              bytesText(spread->high))
                         .arg(*counters.countedLaunches)
                         .arg(bytesText(median));
        };
        add(QCoreApplication::translate("CountSpread", "reads"), counters.dramBytesRead,
            counters.dramReadSpread);
        add(QCoreApplication::translate("CountSpread", "writes"), counters.dramBytesWritten,
            counters.dramWrittenSpread);
    }
    return lines;
}

std::optional<CountSpread> runDramSpread(const VariantResult& run) {
    CountSpread sum{0.0, 0.0};
    bool moved = false;
    const auto add = [&](double median, const std::optional<CountSpread>& spread) {
        sum.low += spread ? spread->low : median;
        sum.high += spread ? spread->high : median;
        moved = moved || (spread && spreadExceedsTolerance(*spread, median));
    };
    for (const KernelResult& kernel : run.kernels) {
        if (!kernel.counters) return std::nullopt;
        add(kernel.counters->dramBytesRead, kernel.counters->dramReadSpread);
        add(kernel.counters->dramBytesWritten, kernel.counters->dramWrittenSpread);
    }
    if (!moved) return std::nullopt;
    return sum;
}

std::optional<std::uint32_t> countedLaunchesOf(const Recording& recording) {
    std::optional<std::uint32_t> launches;
    for (const VariantResult& run : recording.runs)
        for (const KernelResult& kernel : run.kernels)
            if (kernel.counters && kernel.counters->countedLaunches)
                launches = std::max(launches.value_or(0), *kernel.counters->countedLaunches);
    return launches;
}

QString spreadToolTip(const std::optional<std::uint32_t>& countedLaunches,
                      const std::optional<CountSpread>& spread) {
    if (!countedLaunches || !spread) return {};
    return QCoreApplication::translate("CountSpread",
                                       "Median of %1 counted launches: lowest %2, highest %3")
        .arg(*countedLaunches)
        .arg(bytesText(spread->low), bytesText(spread->high));
}

}  // namespace fusescope::model
