#include "model/captions.h"

#include <QStringList>

#include "model/format.h"

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

QString captionFrom(const QString& device, const QString& n, const QString& vector,
                    const QString& source) {
    QStringList parts;
    parts << (device.isEmpty() ? QStringLiteral("unknown device") : device);
    if (!n.isEmpty()) parts << QStringLiteral("N = ") + n;
    parts << QStringLiteral("float32");
    if (!vector.isEmpty()) parts << QStringLiteral("vector ") + vector;
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

QString captionFor(const Recording& recording, const RunRecord& run) {
    return captionFrom(recording.device.name, formatCount(run.n), QString::number(run.vectorWidth),
                       dataSourceBadge(recording, run));
}

QString captionFor(const Recording& recording) {
    if (recording.runs.isEmpty())
        return captionFrom(recording.device.name, QString(), QString(), QString());
    return captionFrom(
        recording.device.name,
        distinctValues(recording, [](const RunRecord& run) { return formatCount(run.n); }),
        distinctValues(recording,
                       [](const RunRecord& run) { return QString::number(run.vectorWidth); }),
        distinctValues(recording,
                       [&](const RunRecord& run) { return dataSourceBadge(recording, run); }));
}

}  // namespace fusescope::model
