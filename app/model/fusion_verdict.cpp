#include "model/fusion_verdict.h"

#include <algorithm>
#include <cmath>

#include "model/count_spread_text.h"
#include "model/format.h"
#include "model/fusion_counterparts.h"
#include "model/run_traffic.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

// Above half the compute roof the arithmetic, not the traffic, sets the time.
constexpr double kComputeBoundShare = 0.5;
// Closer than this, the two take "about the same time": the spread of repeated GPU timings,
// not more (a 9% gain called "about the same" misleads a class).
constexpr double kSameTime = 0.03;
// More DRAM bytes than the baseline by this factor counts as a cause of a loss.
constexpr double kMoreBytes = 1.1;

bool loses(const VariantResult& fused, const VariantResult& baseline) {
    return baseline.timeMs / fused.timeMs < 1.0 - kSameTime;
}

QString comparison(const VariantResult& fused, const VariantResult& baseline) {
    const double ratio = baseline.timeMs / fused.timeMs;
    const QString timesText =
        QStringLiteral("(%1 against %2)")
            .arg(formatDuration(fused.timeMs), formatDuration(baseline.timeMs));
    if (std::abs(ratio - 1.0) < kSameTime)
        return QStringLiteral("%1 and %2 take about the same time %3.")
            .arg(toQString(fused.variant), toQString(baseline.variant), timesText);
    if (ratio > 1.0)
        return QStringLiteral("%1 is %2 faster than %3 %4.")
            .arg(toQString(fused.variant), formatTimes(ratio), toQString(baseline.variant),
                 timesText);
    return QStringLiteral("%1 is %2 slower than %3 %4.")
        .arg(toQString(fused.variant), formatTimes(1.0 / ratio), toQString(baseline.variant),
             timesText);
}

// Why a fused variant loses, in measured numbers: the FLOPs it executes beyond the useful ones
// and at what share of the compute roof, the DRAM bytes beyond the baseline's, a grid smaller
// than the device. "it recomputes g and u for each of 64 output tiles (43x the useful FLOPs) at
// 224 TFLOP/s, 25% of the compute roof; it moves 303x the DRAM bytes of unfused (...)".
QString causes(const Recording& recording, const VariantSpec* variant, const VariantResult& fused,
               const VariantResult& baseline) {
    const RunTraffic traffic = runTraffic(fused);
    const RunTraffic baseTraffic = runTraffic(baseline);
    QStringList parts;
    if (traffic.executesExtraFlops()) {
        const std::string words =
            variant && variant->recomputation ? variant->recomputation(fused.problem) : "";
        QString part = words.empty() ? QStringLiteral("it executes %1 the useful FLOPs")
                                           .arg(formatTimes(traffic.flopsRatio()))
                                     : QStringLiteral("it recomputes %1 (%2 the useful FLOPs)")
                                           .arg(QString::fromStdString(words),
                                                formatTimes(traffic.flopsRatio()));
        if (recording.computeRoof && recording.computeRoof->tflops() > 0)
            part +=
                QStringLiteral(" at %1 TFLOP/s, %2 of the compute roof")
                    .arg(QString::number(traffic.executedTflops(), 'g', 3))
                    .arg(formatPercent(traffic.executedTflops() / recording.computeRoof->tflops()));
        parts << part;
    }
    if (traffic.hasDram() && baseTraffic.hasDram() && baseTraffic.dramBytes > 0 &&
        traffic.dramBytes > kMoreBytes * baseTraffic.dramBytes) {
        const QString sources = traffic.dramSource == baseTraffic.dramSource
                                    ? dramSourceWord(traffic.dramSource)
                                    : QStringLiteral("%1 against %2")
                                          .arg(dramSourceWord(traffic.dramSource),
                                               dramSourceWord(baseTraffic.dramSource));
        QString part =
            QStringLiteral("it moves %1 the DRAM bytes of %2 (%3 against %4, %5)")
                .arg(formatTimes(traffic.dramBytes / baseTraffic.dramBytes),
                     toQString(baseline.variant), formatBytes(quint64(traffic.dramBytes)),
                     formatBytes(quint64(baseTraffic.dramBytes)), sources);
        // A count that moved from launch to launch is one draw: say how far it moved (only
        // measured runs carry a spread).
        if (const std::optional<CountSpread> spread = runDramSpread(fused))
            part.insert(
                part.size() - 1,
                QStringLiteral("; its counted launches moved it from %1 to %2")
                    .arg(formatBytes(quint64(spread->low)), formatBytes(quint64(spread->high))));
        parts << part;
    }
    const int processors = recording.device.multiprocessors;
    for (const KernelResult& kernel : fused.kernels)
        if (kernel.resources.known && kernel.resources.gridSize > 0 &&
            processors > kernel.resources.gridSize) {
            parts << QStringLiteral("the grid of %1 (%2 blocks) leaves %3 of the %4 %5 idle")
                         .arg(QString::fromStdString(kernel.name))
                         .arg(kernel.resources.gridSize)
                         .arg(processors - kernel.resources.gridSize)
                         .arg(processors)
                         .arg(recording.device.processorsName.empty()
                                  ? QStringLiteral("SMs")
                                  : QString::fromStdString(recording.device.processorsName));
            break;
        }
    if (parts.isEmpty()) {
        // Nothing to say where the registry knew neither the FLOPs nor the bytes.
        if (!traffic.usefulFlopsFromRegistry || !traffic.hasDram() || !baseTraffic.hasDram())
            return {};
        return QStringLiteral(
                   "It executes no more FLOPs and moves no more DRAM bytes than %1 "
                   "(%2 against %3): the time goes elsewhere.")
            .arg(toQString(baseline.variant), formatBytes(quint64(traffic.dramBytes)),
                 formatBytes(quint64(baseTraffic.dramBytes)));
    }
    QString text = parts.join(QStringLiteral("; ")) + QLatin1Char('.');
    text[0] = text[0].toUpper();
    return text;
}

// How close a memory-bound variant is to the least time its DRAM bytes allow: " Its 352 MB of
// DRAM traffic (measured) take at least 83.6 µs at the copy roofline measured in the same run
// (4,210.0 GB/s); it takes 87.2 µs, 1.04x that floor." Empty without both figures.
QString copyFloor(const Recording& recording, const RunTraffic& traffic) {
    // The share of the copy roofline the run reaches is the floor over its time.
    const std::optional<double> share = rooflineShare(traffic, recording.roofline);
    if (!share || !(*share > 0)) return {};
    const double floorMs = traffic.timeMs * *share;
    return QStringLiteral(
               " Its %1 of DRAM traffic (%2) take at least %3 at the copy roofline measured in "
               "the same run (%4 GB/s); it takes %5, %6 that floor.")
        .arg(formatBytes(quint64(traffic.dramBytes)), dramSourceWord(traffic.dramSource),
             formatDuration(floorMs), formatGBps(recording.roofline.gbps()),
             formatDuration(traffic.timeMs), formatTimes(1.0 / *share));
}

// The leanest fusion against the baseline, with what bounds its time at this size.
QString leanestVerdict(const Recording& recording, const PipelineSpec& pipeline,
                       const VariantResult& fused, const VariantResult& baseline) {
    const QString text = comparison(fused, baseline);
    // Without a compute roof measured in the run, the times alone; a fusion that loses gets its
    // causes instead of what fusion saves.
    if (!recording.computeRoof || !(recording.computeRoof->tflops() > 0) || loses(fused, baseline))
        return text;
    // "g_u_h" names one buffer of three arrays: "g, u, h" in words.
    const QString intermediate = QString::fromStdString(pipeline.intermediate)
                                     .replace(QLatin1Char('_'), QStringLiteral(", "));
    const RunTraffic traffic = runTraffic(fused);
    const double tflops = traffic.executedTflops();
    const double computeShare = tflops / recording.computeRoof->tflops();
    if (computeShare >= kComputeBoundShare)
        return text + QStringLiteral(
                          " At this size the multiplications take the time: %1 runs at %2 "
                          "TFLOP/s, %3 of the compute roof measured in the same run, so keeping "
                          "%4 on chip saves little.")
                          .arg(toQString(fused.variant))
                          .arg(tflops, 0, 'f', 0)
                          .arg(formatPercent(computeShare), intermediate);
    return text +
           QStringLiteral(
               " At this size moving bytes takes the time (%1 uses %2 of the "
               "compute roof), so what fusion saves, %3 through memory and its "
               "launches, shows in the time.")
               .arg(toQString(fused.variant), formatPercent(computeShare), intermediate) +
           copyFloor(recording, traffic);
}

// The verdict on the variants that ran.
QString verdictOnRuns(const Recording& recording) {
    if (recording.runs.empty()) return {};
    const PipelineSpec* pipeline = findPipeline(recording.runs.front().pipeline);
    if (!pipeline) return {};
    // Each fused variant is compared with the baseline it declares, where that was timed.
    const auto baselineRun = [&](const VariantSpec& variant) -> const VariantResult* {
        const VariantSpec* baseline = variant.fused ? baselineOf(*pipeline, variant) : nullptr;
        return baseline ? timedRunOf(recording, baseline->name) : nullptr;
    };
    if (std::none_of(pipeline->variants.begin(), pipeline->variants.end(),
                     [&](const VariantSpec& variant) { return baselineRun(variant) != nullptr; }))
        return {};

    QStringList sentences;
    const VariantSpec* leanestSpec = findVariant(*pipeline, pipeline->leanestVariant);
    const VariantResult* leanestBaseline = leanestSpec ? baselineRun(*leanestSpec) : nullptr;
    const VariantResult* leanest =
        leanestBaseline ? timedRunOf(recording, pipeline->leanestVariant) : nullptr;
    if (leanest) {
        sentences << leanestVerdict(recording, *pipeline, *leanest, *leanestBaseline);
        if (loses(*leanest, *leanestBaseline))
            if (const QString why = causes(recording, leanestSpec, *leanest, *leanestBaseline);
                !why.isEmpty())
                sentences << why;
    }
    // Every other fused variant that loses, with its cause.
    for (const VariantSpec& variant : pipeline->variants) {
        if (variant.name == pipeline->leanestVariant) continue;
        const VariantResult* baseline = baselineRun(variant);
        const VariantResult* fused = baseline ? timedRunOf(recording, variant.name) : nullptr;
        if (!fused || !loses(*fused, *baseline)) continue;
        const QString why = causes(recording, &variant, *fused, *baseline);
        sentences << (why.isEmpty() ? comparison(*fused, *baseline)
                                    : comparison(*fused, *baseline) + QLatin1Char(' ') + why);
    }
    // Every fused variant slower than a variant that does its work in other kernels, kernel by
    // kernel (the leanest one's comparison with its baseline is said above).
    for (const VariantSpec& variant : pipeline->variants) {
        const VariantResult* fused = variant.fused ? timedRunOf(recording, variant.name) : nullptr;
        if (!fused) continue;
        const std::string compared =
            leanest && &variant == leanestSpec ? leanestBaseline->variant : std::string();
        sentences << slowerThanCounterparts(recording, variant, *fused, compared);
    }
    return sentences.join(QLatin1Char(' '));
}

}  // namespace

QString fusionVerdict(const Recording& recording) {
    QStringList sentences;
    if (const QString verdict = verdictOnRuns(recording); !verdict.isEmpty()) sentences << verdict;
    // A variant left out says so, with its reason, so that its absence is never silent.
    for (const VariantNotRun& variant : recording.variantsNotRun) {
        QString reason = QString::fromStdString(variant.reason);
        if (!reason.endsWith(QLatin1Char('.'))) reason += QLatin1Char('.');
        sentences << QStringLiteral("Not run: %1").arg(reason);
    }
    return sentences.join(QLatin1Char(' '));
}

}  // namespace fusescope::model
