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
    for (const KernelRecord& record : run.kernels) {
        KernelResult kernel;
        kernel.name = record.name.toStdString();
        kernel.timeMs = record.timeMs;
        kernel.modelBytesRead = record.modelBytesRead;
        kernel.modelBytesWritten = record.modelBytesWritten;
        if (record.dramBytesRead && record.dramBytesWritten) {
            KernelCounters counters;
            counters.dramBytesRead = *record.dramBytesRead;
            counters.dramBytesWritten = *record.dramBytesWritten;
            counters.sectorsRead = record.sectorsRead.value_or(0.0);
            counters.sectorsWritten = record.sectorsWritten.value_or(0.0);
            counters.l2SectorsRead = record.l2SectorsRead.value_or(0.0);
            counters.l2SectorsWritten = record.l2SectorsWritten.value_or(0.0);
            counters.deviceKernels = static_cast<std::uint32_t>(record.deviceKernels.value_or(1));
            kernel.counters = counters;
        }
        variant.kernels.push_back(kernel);
    }
    variant.timeline.assign(run.timeline.begin(), run.timeline.end());
    for (const SampleRecord& record : run.samples) {
        BandwidthSample sample;
        sample.startNs = record.timeNs;
        sample.endNs = record.timeNs + record.durationNs;
        const double seconds = static_cast<double>(record.durationNs) * 1e-9;
        sample.dramBytesRead = record.readBytesPerSecond * seconds;
        sample.dramBytesWritten = record.writeBytesPerSecond * seconds;
        variant.samples.push_back(sample);
    }
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
