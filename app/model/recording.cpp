#include "model/recording.h"

#include <array>

#include "model/producer.h"
#include "model/recorded_pipelines.h"

namespace fusescope::model {

namespace {

// Each source's key in files, its words on a badge, and the engine's source it stands for
// (a replayed recording has none).
struct DataSourceNames {
    DataSource source;
    std::optional<MeasurementSource> measured;
    const char* key;
    const char* label;
};
constexpr std::array<DataSourceNames, 4> kDataSourceNames{{
    {DataSource::Counters, MeasurementSource::Counters, "counters", "measured counters"},
    {DataSource::TimingModel, MeasurementSource::TimingModel, "timing+model", "timing + model"},
    {DataSource::CpuBackend, MeasurementSource::CpuBackend, "cpu", "CPU backend"},
    {DataSource::Replay, std::nullopt, "replay", "replayed recording"},
}};

const DataSourceNames* dataSourceNamesOf(DataSource source) {
    for (const DataSourceNames& names : kDataSourceNames)
        if (names.source == source) return &names;
    return nullptr;
}

}  // namespace

QString dataSourceKey(DataSource source) {
    const DataSourceNames* names = dataSourceNamesOf(source);
    return names ? QString::fromLatin1(names->key) : QString();
}

QString dataSourceLabel(DataSource source) {
    const DataSourceNames* names = dataSourceNamesOf(source);
    return names ? QString::fromLatin1(names->label) : QString();
}

std::optional<DataSource> dataSourceFromKey(const QString& key) {
    for (const DataSourceNames& names : kDataSourceNames)
        if (key == QLatin1String(names.key)) return names.source;
    return std::nullopt;
}

DataSource dataSourceFrom(MeasurementSource source) {
    for (const DataSourceNames& names : kDataSourceNames)
        if (names.measured == source) return names.source;
    return DataSource::TimingModel;
}

Recording recordingFrom(const RunReport& report, const RecordingOrigin& origin) {
    Recording recording;
    recording.createdAt = origin.createdAt.toUTC().toString(Qt::ISODate);
    recording.producer = origin.producer;
    recording.device = report.device;
    recording.roofline = report.roofline;
    recording.computeRoof = report.computeRoof;
    recording.counterStatus = report.counterStatus;
    recording.variantsNotRun = report.variantsNotRun;
    recording.runs = report.variants;
    // The CPU backend's timing is always "cpu", whatever a producer left in timingSource.
    for (VariantResult& run : recording.runs)
        if (run.backend == BackendKind::Cpu) run.timingSource = MeasurementSource::CpuBackend;
    recording.pipelineDescriptions = descriptionsToSave(recording);
    return recording;
}

Recording recordingMadeNowBy(const RunReport& report, const QString& program) {
    RecordingOrigin origin;
    origin.producer = producerString(program);
    return recordingFrom(report, origin);
}

}  // namespace fusescope::model
