#include "model/run_conversion.h"

#include "model/recorded_pipelines.h"
#include "model/version.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

std::optional<DataSource> optionalDataSourceFrom(const std::optional<MeasurementSource>& source) {
    if (!source) return std::nullopt;
    return dataSourceFrom(*source);
}

}  // namespace

DataSource dataSourceFrom(MeasurementSource source) {
    switch (source) {
        case MeasurementSource::TimingModel:
            return DataSource::TimingModel;
        case MeasurementSource::CpuBackend:
            return DataSource::CpuBackend;
        case MeasurementSource::Counters:
            return DataSource::Counters;
    }
    return DataSource::TimingModel;
}

QString producerString(const QString& program) {
    return QStringLiteral("%1 %2").arg(program, QLatin1String(kFuseScopeVersion));
}

namespace {

// The elements of every output the check covers.
quint64 outputElementsOf(const VariantResult& variant) {
    const PipelineSpec* pipeline = findPipeline(variant.pipeline);
    const VariantSpec* spec = pipeline ? findVariant(*pipeline, variant.variant) : nullptr;
    if (!spec) return variant.check.comparedElements;
    quint64 elements = 0;
    for (const BufferSpec& buffer : spec->buffers)
        if (buffer.role == BufferRole::Output) elements += buffer.elements(variant.problem);
    return elements;
}

}  // namespace

RunRecord runRecordFrom(const VariantResult& variant) {
    RunRecord run;
    run.pipeline = fromStd(variant.pipeline);
    run.variant = fromStd(variant.variant);
    run.problem = variant.problem;
    run.backend = QString::fromLatin1(backendName(variant.backend));
    run.passes = variant.passes;
    run.passesCounted = variant.passesCounted;
    run.modelBytesRead = variant.modelBytesRead;
    run.modelBytesWritten = variant.modelBytesWritten;
    run.modelFlops = variant.modelFlops;
    run.timeMs = variant.timeMs;
    run.repeatTimesMs = QVector<double>(variant.repeatTimesMs.begin(), variant.repeatTimesMs.end());
    run.kernelsApartTimeMs = variant.kernelsApartTimeMs;
    run.peakBytesInFlight = variant.peakBytesInFlight;
    run.checkMeasure = fromStd(variant.check.measure);
    run.maxRelError = variant.check.error;
    run.checkTolerance = variant.check.tolerance;
    run.unwrittenElements = variant.check.unwrittenElements;
    run.outputElements = outputElementsOf(variant);
    run.comparedElements = variant.check.comparedElements;
    run.checkOk = variant.check.ok;
    run.wrongOutput = fromStd(variant.check.wrongOutput);
    run.wrongElement = variant.check.wrongElement;
    run.kernels = QVector<KernelResult>(variant.kernels.begin(), variant.kernels.end());
    run.allocations =
        QVector<AllocationEvent>(variant.allocations.begin(), variant.allocations.end());
    run.timeline = QVector<TimelineSpan>(variant.timeline.begin(), variant.timeline.end());
    run.samples = QVector<BandwidthSample>(variant.samples.begin(), variant.samples.end());
    // The CPU backend's timing is always "cpu", whatever the runner left in timingSource.
    run.dataSource.timing = variant.backend == BackendKind::Cpu
                                ? DataSource::CpuBackend
                                : dataSourceFrom(variant.timingSource);
    run.dataSource.counters = optionalDataSourceFrom(variant.countersSource);
    run.dataSource.samples = optionalDataSourceFrom(variant.samplesSource);
    return run;
}

Recording recordingFrom(const RunReport& report, const ConversionOptions& options) {
    Recording recording;
    recording.createdAt = options.createdAt.toUTC().toString(Qt::ISODate);
    recording.producer = options.producer;
    recording.device = report.device;
    recording.roofline = report.roofline;
    recording.computeRoof = report.computeRoof;
    recording.counterStatus = report.counterStatus;
    for (const VariantResult& variant : report.variants)
        recording.runs.push_back(runRecordFrom(variant));
    recording.pipelineDescriptions = descriptionsToSave(recording);
    return recording;
}

}  // namespace fusescope::model
