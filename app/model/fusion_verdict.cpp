#include "model/fusion_verdict.h"

#include <cmath>

#include "model/format.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

// Above half the compute roof the arithmetic, not the traffic, sets the time.
constexpr double kComputeBoundShare = 0.5;
// Closer than this, the two take "about the same time".
constexpr double kSameTime = 0.1;

const RunRecord* runOf(const Recording& recording, const std::string& variant) {
    for (const RunRecord& run : recording.runs)
        if (run.variant.toStdString() == variant && run.timeMs > 0) return &run;
    return nullptr;
}

QString comparison(const RunRecord& fused, const RunRecord& baseline) {
    const double ratio = baseline.timeMs / fused.timeMs;
    const QString times = QStringLiteral("(%1 against %2)")
                              .arg(formatDuration(fused.timeMs), formatDuration(baseline.timeMs));
    if (std::abs(ratio - 1.0) < kSameTime)
        return QStringLiteral("%1 and %2 take about the same time %3.")
            .arg(fused.variant, baseline.variant, times);
    if (ratio > 1.0)
        return QStringLiteral("%1 is %2x faster than %3 %4.")
            .arg(fused.variant)
            .arg(ratio, 0, 'f', 2)
            .arg(baseline.variant, times);
    return QStringLiteral("%1 is %2x slower than %3 %4.")
        .arg(fused.variant)
        .arg(1.0 / ratio, 0, 'f', 2)
        .arg(baseline.variant, times);
}

}  // namespace

QString fusionVerdict(const Recording& recording) {
    if (recording.runs.isEmpty()) return {};
    const PipelineSpec* pipeline = findPipeline(recording.runs.front().pipeline.toStdString());
    if (!pipeline || pipeline->leanestVariant.empty() || pipeline->variants.empty()) return {};
    const std::string& baselineName = pipeline->variants.front().name;
    if (baselineName == pipeline->leanestVariant) return {};
    const RunRecord* fused = runOf(recording, pipeline->leanestVariant);
    const RunRecord* baseline = runOf(recording, baselineName);
    if (!fused || !baseline) return {};

    const QString text = comparison(*fused, *baseline);
    // Without a compute roof measured in the run, the times alone.
    if (!recording.computeRoof || !(recording.computeRoof->tflops() > 0)) return text;
    // "g_u_h" names one buffer of three arrays: "g, u, h" in words.
    const QString intermediate = QString::fromStdString(pipeline->intermediate)
                                     .replace(QLatin1Char('_'), QStringLiteral(", "));
    const double computeShare = fused->achievedTflops() / recording.computeRoof->tflops();
    if (computeShare >= kComputeBoundShare)
        return text + QStringLiteral(
                          " At this size the multiplications take the time: %1 runs at %2 "
                          "TFLOP/s, %3 of the compute roof measured in the same run, so keeping "
                          "%4 on chip saves little.")
                          .arg(fused->variant)
                          .arg(fused->achievedTflops(), 0, 'f', 0)
                          .arg(formatPercent(computeShare), intermediate);
    return text + QStringLiteral(
                      " At this size moving bytes takes the time (%1 uses %2 of the "
                      "compute roof), so what fusion saves, %3 through memory and its "
                      "launches, shows in the time.")
                      .arg(fused->variant, formatPercent(computeShare), intermediate);
}

}  // namespace fusescope::model
