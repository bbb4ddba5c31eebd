#include "model/run_conversion.h"

#include "model/version.h"

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
    record.resourcesKnown = kernel.resources.known;
    record.registersPerThread = kernel.resources.registersPerThread;
    record.sharedBytesPerBlock = kernel.resources.sharedBytesPerBlock;
    record.localBytesPerThread = kernel.resources.localBytesPerThread;
    record.blockSize = kernel.resources.blockSize;
    record.gridSize = kernel.resources.gridSize;
    record.theoreticalOccupancy = kernel.resources.theoreticalOccupancy;
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

}  // namespace

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
    record.theoreticalBandwidthGBps = device.theoreticalBandwidthGBps;
    record.driverVersion = fromStd(device.driverVersion);
    record.runtimeVersion = fromStd(device.runtimeVersion);
    return record;
}

DataSource timingSourceFor(BackendKind backend) {
    return backend == BackendKind::Cpu ? DataSource::CpuBackend : DataSource::TimingModel;
}

RunRecord runRecordFrom(const VariantResult& variant) {
    RunRecord run;
    run.pipeline = fromStd(variant.pipeline);
    run.variant = fromStd(variant.variant);
    run.n = variant.n;
    run.vectorWidth = variant.vectorWidth;
    run.backend = QString::fromLatin1(backendName(variant.backend));
    run.passes = variant.passes;
    run.modelBytesRead = variant.modelBytesRead;
    run.modelBytesWritten = variant.modelBytesWritten;
    run.timeMs = variant.timeMs;
    run.repeatTimesMs = QVector<double>(variant.repeatTimesMs.begin(), variant.repeatTimesMs.end());
    run.peakBytesInFlight = variant.peakBytesInFlight;
    run.maxRelError = variant.check.maxRelativeError;
    run.unwrittenElements = variant.check.unwrittenElements;
    run.checkOk = variant.check.ok;
    for (const KernelResult& kernel : variant.kernels)
        run.kernels.push_back(kernelRecordFrom(kernel));
    for (const AllocationEvent& event : variant.allocations)
        run.allocations.push_back(allocationRecordFrom(event));
    run.dataSource.timing = timingSourceFor(variant.backend);
    return run;
}

Recording recordingFrom(const RunReport& report, const ConversionOptions& options) {
    Recording recording;
    recording.createdAt = options.createdAt.toUTC().toString(Qt::ISODate);
    recording.producer = options.producer;
    recording.device = deviceRecordFrom(report.device);
    recording.roofline.timeMs = report.roofline.timeMs;
    recording.roofline.bytesMoved = report.roofline.bytesMoved;
    recording.counterStatus = options.counterStatus;
    for (const VariantResult& variant : report.variants)
        recording.runs.push_back(runRecordFrom(variant));
    return recording;
}

}  // namespace fusescope::model
