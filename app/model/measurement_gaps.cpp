#include "model/measurement_gaps.h"

#include "measure/gap.h"

namespace fusescope::model {
namespace {

QStringList wordsOf(const std::vector<GapFinding>& findings) {
    QStringList words;
    for (const GapFinding& finding : findings) words << QString::fromStdString(finding.words);
    return words;
}

// The kernels layer judges gaps on its own report type: rebuild the parts it reads.
VariantResult variantFrom(const RunRecord& run) {
    VariantResult variant;
    variant.pipeline = run.pipeline.toStdString();
    variant.variant = run.variant.toStdString();
    variant.problem = run.problem;
    variant.modelBytesRead = run.modelBytesRead;
    variant.modelBytesWritten = run.modelBytesWritten;
    variant.kernels.assign(run.kernels.begin(), run.kernels.end());
    variant.timeline.assign(run.timeline.begin(), run.timeline.end());
    variant.samples.assign(run.samples.begin(), run.samples.end());
    return variant;
}

}  // namespace

QVector<RunGapView> measurementGaps(const Recording& recording) {
    RunReport report;
    report.device.l2CacheBytes = recording.device.l2CacheBytes;
    for (const RunRecord& run : recording.runs) report.variants.push_back(variantFrom(run));

    QVector<RunGapView> views;
    for (const VariantGap& gap : explainGaps(report)) {
        RunGapView view;
        for (const RunRecord& run : recording.runs)
            if (run.variant.toStdString() == gap.variant) view.pipeline = run.pipeline;
        view.variant = QString::fromStdString(gap.variant);
        view.modelBytes = gap.modelBytes;
        view.measuredBytes = gap.measuredBytes;
        view.percent = gap.percent;
        view.reasons = wordsOf(gap.findings);
        for (const KernelGap& kernel : gap.kernels)
            view.kernels.push_back({QString::fromStdString(kernel.name), kernel.modelBytes,
                                    kernel.measuredBytes, kernel.percent,
                                    wordsOf(kernel.findings)});
        views.push_back(view);
    }
    return views;
}

}  // namespace fusescope::model
