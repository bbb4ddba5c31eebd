#include "model/run_conversion.h"

#include "model/recorded_pipelines.h"
#include "model/version.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

KernelRecord kernelRecordFrom(const KernelResult& kernel) {
    KernelRecord record;
    record.name = fromStd(kernel.name);
    record.timeMs = kernel.timeMs;
    record.modelBytesRead = kernel.modelBytesRead;
    record.modelBytesWritten = kernel.modelBytesWritten;
    record.modelFlops = kernel.modelFlops;
    record.resourcesKnown = kernel.resources.known;
    record.registersPerThread = kernel.resources.registersPerThread;
    record.sharedBytesPerBlock = kernel.resources.sharedBytesPerBlock;
    record.localBytesPerThread = kernel.resources.localBytesPerThread;
    record.blockSize = kernel.resources.blockSize;
    record.gridSize = kernel.resources.gridSize;
    record.theoreticalOccupancy = kernel.resources.theoreticalOccupancy;
    if (kernel.counters) {
        record.dramBytesRead = kernel.counters->dramBytesRead;
        record.dramBytesWritten = kernel.counters->dramBytesWritten;
        record.sectorsRead = kernel.counters->sectorsRead;
        record.sectorsWritten = kernel.counters->sectorsWritten;
        record.l2SectorsRead = kernel.counters->l2SectorsRead;
        record.l2SectorsWritten = kernel.counters->l2SectorsWritten;
        record.deviceKernels = static_cast<int>(kernel.counters->deviceKernels);
    }
    return record;
}

AllocationRecord allocationRecordFrom(const AllocationEvent& event) {
    AllocationRecord record;
    record.isAllocation = event.kind == AllocationEvent::Kind::Allocate;
    record.buffer = fromStd(event.buffer);
    record.bytes = event.bytes;
    record.timeNs = event.timeNs;
    record.inFlightAfter = event.inFlightAfter;
    return record;
}

std::optional<DataSource> optionalDataSourceFrom(const std::optional<MeasurementSource>& source) {
    if (!source) return std::nullopt;
    return dataSourceFrom(*source);
}

}  // namespace

SampleRecord sampleRecordFrom(const BandwidthSample& sample) {
    SampleRecord record;
    record.timeNs = sample.startNs;
    record.durationNs = sample.endNs - sample.startNs;
    record.readBytesPerSecond = sample.readBytesPerSecond();
    record.writeBytesPerSecond = sample.writeBytesPerSecond();
    return record;
}

model::TimelineSpan spanRecordFrom(const fusescope::TimelineSpan& span) {
    model::TimelineSpan record;
    record.kind = span.kind == fusescope::TimelineSpan::Kind::Kernel
                      ? model::TimelineSpan::Kind::Kernel
                      : model::TimelineSpan::Kind::Allocation;
    record.name = fromStd(span.name);
    record.startNs = span.startNs;
    record.endNs = span.endNs;
    record.bytes = span.bytes;
    return record;
}

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

DeviceRecord deviceRecordFrom(const DeviceInfo& device) {
    DeviceRecord record;
    record.backend = QString::fromLatin1(backendName(device.backend));
    record.name = fromStd(device.name);
    record.computeCapabilityMajor = device.computeCapabilityMajor;
    record.computeCapabilityMinor = device.computeCapabilityMinor;
    record.multiprocessors = device.multiprocessors;
    record.l2CacheBytes = device.l2CacheBytes;
    record.totalMemoryBytes = device.totalMemoryBytes;
    record.freeMemoryBytes = device.freeMemoryBytes;
    record.theoreticalBandwidthGBps = device.theoreticalBandwidthGBps;
    record.driverVersion = fromStd(device.driverVersion);
    record.runtimeVersion = fromStd(device.runtimeVersion);
    record.memoryName = fromStd(device.memoryName);
    record.processorsName = fromStd(device.processorsName);
    record.deviceIndex = device.deviceIndex;
    return record;
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
    for (const KernelResult& kernel : variant.kernels)
        run.kernels.push_back(kernelRecordFrom(kernel));
    for (const AllocationEvent& event : variant.allocations)
        run.allocations.push_back(allocationRecordFrom(event));
    for (const fusescope::TimelineSpan& span : variant.timeline)
        run.timeline.push_back(spanRecordFrom(span));
    for (const BandwidthSample& sample : variant.samples)
        run.samples.push_back(sampleRecordFrom(sample));
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
    recording.device = deviceRecordFrom(report.device);
    recording.roofline.timeMs = report.roofline.timeMs;
    recording.roofline.bytesMoved = report.roofline.bytesMoved;
    if (report.computeRoof)
        recording.computeRoof =
            ComputeRoofRecord{report.computeRoof->timeMs, report.computeRoof->flops,
                              QString::fromStdString(report.computeRoof->description)};
    recording.counterStatus = QString::fromStdString(report.counterStatus);
    for (const VariantResult& variant : report.variants)
        recording.runs.push_back(runRecordFrom(variant));
    recording.pipelineDescriptions = descriptionsToSave(recording);
    return recording;
}

}  // namespace fusescope::model
