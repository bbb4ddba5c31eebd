// fusescope-live-shot: runs a measured run (timing, counter run, sampling run), prints model
// beside measurement with the reasons for every gap and the cost of measuring, and renders the
// live bandwidth chart + allocation chart of the sampling run to a PNG. For GPU servers without
// a display (it renders offscreen) and for checking the measurement layer end to end.
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

#include "live/live_bandwidth_chart.h"
#include "live/live_plot.h"
#include "measure/gap.h"
#include "measure/measured_run.h"
#include "pipelines/registry.h"
#include "runtime/backend_selection.h"
#include "ui/export/export_save.h"

using namespace fusescope;

namespace {

class PrintingObserver : public RunObserver {
  public:
    void samplesArrived(std::string_view variant, std::span<const BandwidthSample> samples,
                        std::span<const TimelineSpan> spans) override {
        ++batches;
        (void)variant;
        samplesStreamed += samples.size();
        spansStreamed += spans.size();
    }
    int batches = 0;
    std::size_t samplesStreamed = 0;
    std::size_t spansStreamed = 0;
};

void printReport(const RunReport& report) {
    std::printf("device %s, L2 %.1f MB, copy roofline %.0f GB/s\n", report.device.name.c_str(),
                report.device.l2CacheBytes / 1e6, report.roofline.gbps());
    if (!report.counterStatus.empty()) std::printf("counters: %s\n", report.counterStatus.c_str());
    std::printf(
        "cost: counter run %.1f ms, sampling run %.1f ms, %llu samples, %.2f us host CPU "
        "per sample\n",
        report.counterRunWallMs, report.samplingRunWallMs,
        static_cast<unsigned long long>(report.samplesDecoded), report.hostCpuUsPerSample);
    for (const VariantResult& variant : report.variants) {
        std::printf("%-10s %8.3f ms  peak in flight %llu B  check %s  samples %zu  spans %zu\n",
                    variant.variant.c_str(), variant.timeMs,
                    static_cast<unsigned long long>(variant.peakBytesInFlight),
                    variant.check.ok ? "OK" : "FAIL", variant.samples.size(),
                    variant.timeline.size());
        for (const KernelResult& kernel : variant.kernels) {
            std::printf("  %-16s model rd %12llu wr %12llu", kernel.name.c_str(),
                        static_cast<unsigned long long>(kernel.modelBytesRead),
                        static_cast<unsigned long long>(kernel.modelBytesWritten));
            if (kernel.counters)
                std::printf("  DRAM rd %14.0f wr %14.0f  sectors rd %12.0f wr %12.0f\n",
                            kernel.counters->dramBytesRead, kernel.counters->dramBytesWritten,
                            kernel.counters->sectorsRead.value_or(0.0),
                            kernel.counters->sectorsWritten.value_or(0.0));
            else
                std::printf("  (not measured)\n");
        }
    }
    for (const VariantGap& gap : explainGaps(report)) {
        std::printf("gap %-10s model %.4g B, DRAM %.4g B: %+.1f%%\n", gap.variant.c_str(),
                    gap.modelBytes, gap.measuredBytes, gap.percent.value_or(0.0));
        for (const KernelGap& kernel : gap.kernels)
            std::printf("    %-16s %+.1f%%\n", kernel.name.c_str(), kernel.percent.value_or(0.0));
        for (const GapFinding& finding : gap.findings)
            std::printf("    why: %s\n", finding.words.c_str());
    }
}

void feedChart(live::LiveBandwidthChart& chart, const RunReport& report, const QString& badge) {
    chart.setOrigin(0);
    chart.setRoofline(report.roofline.gbps());
    chart.setDataSource(badge);
    for (const VariantResult& variant : report.variants) {
        QVector<live::LiveSample> batch;
        for (const BandwidthSample& sample : variant.samples)
            batch.append({sample.startNs, sample.endNs, sample.readBytesPerSecond,
                          sample.writeBytesPerSecond});
        chart.appendSamples(batch);
        for (const TimelineSpan& span : variant.timeline) {
            if (span.kind == TimelineSpan::Kind::Kernel)
                chart.addKernelSpan(QString::fromStdString(variant.variant + ": " + span.name),
                                    span.startNs, span.endNs);
            else
                chart.addAllocationSpan(QString::fromStdString(span.name), span.bytes, span.startNs,
                                        span.endNs);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Measured run with hardware counters and a chart of DRAM "
        "bandwidth over time.");
    parser.addHelpOption();
    parser.addOptions({{"pipeline", "Pipeline (affine, swiglu).", "name", "swiglu"},
                       {"n", "Elements per array.", "N", "268435456"},
                       {"vector", "Vector width.", "width", QString::number(kDefaultVectorWidth)},
                       {"interval-us", "PM sampling interval, 10..1000 us.", "us", "20"},
                       {"repeats", "Launches per variant while sampled.", "count", "3"},
                       {"out", "PNG to write.", "file", "live-bandwidth.png"}});
    parser.process(app);

    RunRequest request;
    request.pipeline = parser.value("pipeline").toStdString();
    if (const PipelineSpec* pipeline = findPipeline(request.pipeline))
        request.problem = pipeline->defaultProblem();
    request.problem.dimensions[std::string(kElementCountDimension)] =
        parser.value("n").toULongLong();
    request.problem.tuning[std::string(kVectorWidthTuning)] = parser.value("vector").toInt();
    request.settings.repeats = 5;
    request.settings.warmup = 2;
    MeasureOptions options;
    options.samplingIntervalNs = parser.value("interval-us").toLongLong() * 1000;
    options.samplingRepeats = parser.value("repeats").toInt();

    BackendSet backends;
    Result<BackendSelection> selection = selectBackend(BackendChoice::Auto, backends);
    if (!selection) {
        std::fprintf(stderr, "no backend: %s\n", selection.status().message().c_str());
        return 3;
    }
    std::fprintf(stderr, "%s\n", selection->autoNote.c_str());
    std::unique_ptr<CounterProvider> provider = createCounterProvider();
    PrintingObserver observer;
    Result<RunReport> report =
        runMeasured(*selection->backend, *provider, request, options, observer);
    if (!report) {
        std::fprintf(stderr, "run failed: %s\n", report.status().message().c_str());
        return 3;
    }
    printReport(*report);
    std::printf("streamed to the observer: %d batches, %zu samples, %zu spans\n", observer.batches,
                observer.samplesStreamed, observer.spansStreamed);

    live::LiveBandwidthChart chart;
    chart.resize(1400, 800);
    const bool sampled = report->samplesDecoded > 0;
    const QString badge =
        QString::fromStdString(report->device.name) +
        " · N = " + QString::number(request.problem.dimension(kElementCountDimension)) +
        " · float32 · vector " + QString::number(request.problem.tuningValue(kVectorWidthTuning)) +
        " · " + (sampled ? "measured counters" : "no samples: timing + model");
    feedChart(chart, *report, badge);
    QCoreApplication::processEvents();
    chart.show();
    for (int i = 0; i < 10; ++i) QCoreApplication::processEvents();
    const QString out = parser.value("out");
    if (const QString error = saveImageAsPng(chart.plot()->toPixmap(1400, 800).toImage(), out);
        !error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 3;
    }
    std::printf("chart written to %s\n", qPrintable(out));
    return 0;
}
