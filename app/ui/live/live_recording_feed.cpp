#include "live/live_recording_feed.h"

namespace fusescope::live {

void appendToChart(LiveBandwidthChart& chart, const QVector<model::SampleRecord>& samples,
                   const QVector<model::TimelineSpan>& spans, const QString& variant) {
    QVector<LiveSample> batch;
    batch.reserve(samples.size());
    for (const model::SampleRecord& sample : samples)
        batch.append({sample.timeNs, sample.timeNs + sample.durationNs, sample.readBytesPerSecond,
                      sample.writeBytesPerSecond});
    chart.appendSamples(batch);
    for (const model::TimelineSpan& span : spans) {
        if (span.kind == model::TimelineSpan::Kind::Kernel)
            chart.addKernelSpan(variant.isEmpty() ? span.name : variant + ": " + span.name,
                                span.startNs, span.endNs);
        else
            chart.addAllocationSpan(span.name, span.bytes, span.startNs, span.endNs);
    }
}

bool showRecording(LiveBandwidthChart& chart, const model::Recording& recording) {
    chart.clear();
    bool any = false;
    for (const model::RunRecord& run : recording.runs) any = any || !run.samples.isEmpty();
    if (!any) {
        // Say why the chart is empty rather than leave bare axes (CPU runs, timing-only runs).
        const model::DataSource source = recording.runs.isEmpty()
                                             ? model::DataSource::TimingModel
                                             : recording.runs.front().dataSource.timing;
        QString badge = model::dataSourceLabel(source) +
                        QStringLiteral(
                            " · no DRAM bandwidth samples in this recording (they "
                            "come from a measured GPU run)");
        if (!recording.device.name.isEmpty()) badge.prepend(recording.device.name + " · ");
        chart.setDataSource(badge);
        return false;
    }
    chart.setOrigin(0);  // recorded timelines start at the sampling session's start
    chart.setRoofline(recording.roofline.gbps());
    const model::DataSource source =
        recording.replayed ? model::DataSource::Replay : model::DataSource::Counters;
    chart.setDataSource(recording.device.name + " · " + model::dataSourceLabel(source));
    for (const model::RunRecord& run : recording.runs)
        appendToChart(chart, run.samples, run.timeline, run.variant);
    return true;
}

}  // namespace fusescope::live
