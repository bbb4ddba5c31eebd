#include "live/live_recording_feed.h"

namespace fusescope::live {

namespace {

void appendSpans(LiveBandwidthChart& chart, std::span<const fusescope::TimelineSpan> spans,
                 const QString& variant) {
    for (const fusescope::TimelineSpan& span : spans) {
        const QString name = QString::fromStdString(span.name);
        if (span.kind == fusescope::TimelineSpan::Kind::Kernel)
            chart.addKernelSpan(variant.isEmpty() ? name : variant + ": " + name, span.startNs,
                                span.endNs);
        else
            chart.addAllocationSpan(name, span.bytes, span.startNs, span.endNs);
    }
}

}  // namespace

void appendToChart(LiveBandwidthChart& chart, std::span<const BandwidthSample> samples,
                   std::span<const fusescope::TimelineSpan> spans, const QString& variant) {
    QVector<LiveSample> batch;
    batch.reserve(static_cast<qsizetype>(samples.size()));
    for (const BandwidthSample& sample : samples)
        batch.append(
            {sample.startNs, sample.endNs, sample.readBytesPerSecond, sample.writeBytesPerSecond});
    chart.appendSamples(batch);
    appendSpans(chart, spans, variant);
}

bool showRecording(LiveBandwidthChart& chart, const model::Recording& recording) {
    chart.clear();
    bool any = false;
    for (const model::VariantResult& run : recording.runs) any = any || !run.samples.empty();
    if (!any) {
        // Say why the chart is empty rather than leave bare axes (CPU runs, timing-only runs).
        const model::DataSource source =
            recording.runs.empty() ? model::DataSource::TimingModel
                                   : model::dataSourceFrom(recording.runs.front().timingSource);
        QString badge = model::dataSourceLabel(source) +
                        QStringLiteral(
                            " · no DRAM bandwidth samples in this recording (they "
                            "come from a measured GPU run)");
        if (!recording.device.name.empty())
            badge.prepend(QString::fromStdString(recording.device.name) + " · ");
        chart.setDataSource(badge);
        return false;
    }
    chart.setOrigin(0);  // recorded timelines start at the sampling session's start
    chart.setRoofline(recording.roofline.gbps());
    const model::DataSource source =
        recording.replayed ? model::DataSource::Replay : model::DataSource::Counters;
    chart.setDataSource(QString::fromStdString(recording.device.name) + " · " +
                        model::dataSourceLabel(source));
    for (const model::VariantResult& run : recording.runs)
        appendToChart(chart, run.samples, run.timeline, model::toQString(run.variant));
    return true;
}

}  // namespace fusescope::live
