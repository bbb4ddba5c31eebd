#include "model/captions.h"

#include <QStringList>

#include "model/format.h"
#include "pipelines/registry.h"

namespace fusescope::model {
namespace {

const QString kSeparator = QStringLiteral(" · ");

// The distinct values of `key` over the runs, in first-seen order, joined with " / ".
template <typename Key>
QString distinctValues(const Recording& recording, Key key) {
    QStringList values;
    for (const RunRecord& run : recording.runs) {
        const QString value = key(run);
        if (!values.contains(value)) values.append(value);
    }
    return values.join(QStringLiteral(" / "));
}

QString captionFrom(const QString& device, const QString& problem, const QString& source) {
    QStringList parts;
    parts << (device.isEmpty() ? QStringLiteral("unknown device") : device);
    if (!problem.isEmpty()) parts << problem;
    if (!source.isEmpty()) parts << source;
    return parts.join(kSeparator);
}

}  // namespace

DataSource primaryDataSource(const RunRecord& run) {
    return run.dataSource.counters ? *run.dataSource.counters : run.dataSource.timing;
}

QString dataSourceBadge(const Recording& recording, const RunRecord& run) {
    const QString label = dataSourceLabel(primaryDataSource(run));
    return recording.replayed ? label + QStringLiteral(", replayed") : label;
}

QString deviceLabel(const DeviceRecord& device) {
    if (device.backend != QLatin1String("cpu") || device.name.isEmpty()) return device.name;
    QStringList details;
    if (device.multiprocessors > 0)
        details << (device.multiprocessors == 1
                        ? QStringLiteral("1 thread")
                        : QStringLiteral("%1 threads").arg(device.multiprocessors));
    if (!device.runtimeVersion.isEmpty()) details << device.runtimeVersion;
    if (details.isEmpty()) return device.name;
    return QStringLiteral("%1 (%2)").arg(device.name, details.join(QStringLiteral(", ")));
}

QString problemLabel(const RunRecord& run) {
    if (const PipelineSpec* pipeline = findPipeline(run.pipeline.toStdString()))
        return QString::fromStdString(describeProblem(*pipeline, run.problem));
    // A pipeline this build does not know: its values as recorded.
    QStringList parts;
    for (const auto& [name, value] : run.problem.dimensions)
        parts << QStringLiteral("%1 = %2").arg(QString::fromStdString(name), formatCount(value));
    QStringList all{parts.join(QStringLiteral(", ")), QString::fromUtf8(dtypeName(run.problem.dtype))};
    for (const auto& [name, value] : run.problem.tuning)
        all << QStringLiteral("%1 %2").arg(QString::fromStdString(name)).arg(value);
    return all.join(kSeparator);
}

QString captionFor(const Recording& recording, const RunRecord& run) {
    return captionFrom(deviceLabel(recording.device), problemLabel(run),
                       dataSourceBadge(recording, run));
}

QString checkScope(const RunRecord& run) {
    if (run.comparedElements >= run.outputElements)
        return QStringLiteral("over all %1 elements").arg(formatCount(run.outputElements));
    return QStringLiteral("over %1 sampled elements of %2; every element checked for being written")
        .arg(formatCount(run.comparedElements), formatCount(run.outputElements));
}

QString captionFor(const Recording& recording) {
    if (recording.runs.isEmpty())
        return captionFrom(deviceLabel(recording.device), QString(), QString());
    return captionFrom(
        deviceLabel(recording.device),
        distinctValues(recording, [](const RunRecord& run) { return problemLabel(run); }),
        distinctValues(recording,
                       [&](const RunRecord& run) { return dataSourceBadge(recording, run); }));
}

}  // namespace fusescope::model
