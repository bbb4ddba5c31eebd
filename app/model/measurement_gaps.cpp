#include "model/measurement_gaps.h"

#include "measure/gap.h"

namespace fusescope::model {
namespace {

QStringList wordsOf(const std::vector<GapFinding>& findings) {
    QStringList words;
    for (const GapFinding& finding : findings) words << toQString(finding.words);
    return words;
}

}  // namespace

QVector<RunGapView> measurementGaps(const Recording& recording) {
    QVector<RunGapView> views;
    for (const VariantResult& run : recording.runs) {
        const std::optional<VariantGap> gap = explainVariantGap(run, recording.device.l2CacheBytes);
        if (!gap) continue;
        RunGapView view;
        view.pipeline = toQString(run.pipeline);
        view.variant = toQString(gap->variant);
        view.modelBytes = gap->modelBytes;
        view.measuredBytes = gap->measuredBytes;
        view.percent = gap->percent;
        view.reasons = wordsOf(gap->findings);
        for (const KernelGap& kernel : gap->kernels)
            view.kernels.push_back({toQString(kernel.name), kernel.modelBytes, kernel.measuredBytes,
                                    kernel.percent, wordsOf(kernel.findings)});
        views.push_back(view);
    }
    return views;
}

}  // namespace fusescope::model
