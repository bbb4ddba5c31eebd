#include "model/recording.h"

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

}  // namespace fusescope::model
