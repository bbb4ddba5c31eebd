#include "model/recording.h"

#include "model/recorded_pipelines.h"

namespace fusescope::model {

QString dataSourceKey(DataSource source) {
    switch (source) {
        case DataSource::Counters:
            return QStringLiteral("counters");
        case DataSource::TimingModel:
            return QStringLiteral("timing+model");
        case DataSource::CpuBackend:
            return QStringLiteral("cpu");
        case DataSource::Replay:
            return QStringLiteral("replay");
    }
    return {};
}

QString dataSourceLabel(DataSource source) {
    switch (source) {
        case DataSource::Counters:
            return QStringLiteral("measured counters");
        case DataSource::TimingModel:
            return QStringLiteral("timing + model");
        case DataSource::CpuBackend:
            return QStringLiteral("CPU backend");
        case DataSource::Replay:
            return QStringLiteral("replayed recording");
    }
    return {};
}

std::optional<DataSource> dataSourceFromKey(const QString& key) {
    for (DataSource source : {DataSource::Counters, DataSource::TimingModel, DataSource::CpuBackend,
                              DataSource::Replay})
        if (dataSourceKey(source) == key) return source;
    return std::nullopt;
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

Recording recordingFrom(const RunReport& report, const ConversionOptions& options) {
    Recording recording;
    recording.createdAt = options.createdAt.toUTC().toString(Qt::ISODate);
    recording.producer = options.producer;
    recording.device = report.device;
    recording.roofline = report.roofline;
    recording.computeRoof = report.computeRoof;
    recording.counterStatus = report.counterStatus;
    recording.runs = report.variants;
    // The CPU backend's timing is always "cpu", whatever a producer left in timingSource.
    for (VariantResult& run : recording.runs)
        if (run.backend == BackendKind::Cpu) run.timingSource = MeasurementSource::CpuBackend;
    recording.pipelineDescriptions = descriptionsToSave(recording);
    return recording;
}

}  // namespace fusescope::model
