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
    for (const VariantResult& run : recording.runs) {
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

DataSource primaryDataSource(const VariantResult& run) {
    return dataSourceFrom(run.countersSource ? *run.countersSource : run.timingSource);
}

QString dataSourceBadge(const Recording& recording, const VariantResult& run) {
    const QString label = dataSourceLabel(primaryDataSource(run));
    return recording.replayed ? label + QStringLiteral(", replayed") : label;
}

QString deviceLabel(const DeviceInfo& device) {
    const QString name = toQString(device.name);
    if (device.backend != BackendKind::Cpu || name.isEmpty()) return name;
    QStringList details;
    if (device.multiprocessors > 0)
        details << (device.multiprocessors == 1
                        ? QStringLiteral("1 thread")
                        : QStringLiteral("%1 threads").arg(device.multiprocessors));
    if (!device.runtimeVersion.empty()) details << toQString(device.runtimeVersion);
    if (details.isEmpty()) return name;
    return QStringLiteral("%1 (%2)").arg(name, details.join(QStringLiteral(", ")));
}

QString problemLabel(const VariantResult& run) {
    if (const PipelineSpec* pipeline = findPipeline(run.pipeline))
        return toQString(describeProblem(*pipeline, run.problem, {run.variant}));
    // A pipeline this build does not know: its values as recorded.
    QStringList parts;
    for (const auto& [name, value] : run.problem.dimensions)
        parts << QStringLiteral("%1 = %2").arg(toQString(name), formatCount(value));
    QStringList all{parts.join(QStringLiteral(", ")),
                    QString::fromUtf8(dtypeTitle(run.problem.dtype))};
    for (const auto& [name, value] : run.problem.tuning)
        all << QStringLiteral("%1 %2").arg(toQString(name)).arg(value);
    return all.join(kSeparator);
}

namespace {

// The runs' problems in one label, value by value: "N = 268,435,456 · float32 · vector 4 / 1".
// A tuning parameter shows the values of the runs whose variant takes it, and not at all where
// none does.
QString combinedProblemLabel(const Recording& recording) {
    struct Tuning {
        std::string name;
        QString title;
        QVector<const VariantResult*> users;  // the runs whose kernels take it
    };
    // Names in the pipeline's declared order where this build knows it, else as recorded.
    std::vector<std::string> dimensions;
    std::vector<Tuning> tunings;
    if (const PipelineSpec* pipeline = findPipeline(recording.runs.front().pipeline)) {
        for (const DimensionSpec& dimension : pipeline->dimensions)
            dimensions.push_back(dimension.name);
        for (const TuningSpec& tuning : pipeline->tunings) {
            Tuning shown{tuning.name, toQString(tuning.title), {}};
            for (const VariantResult& run : recording.runs)
                if (tuning.usedBy(run.variant, run.problem)) shown.users << &run;
            if (!shown.users.isEmpty()) tunings.push_back(std::move(shown));
        }
    } else {
        for (const auto& [name, value] : recording.runs.front().problem.dimensions)
            dimensions.push_back(name);
        for (const auto& [name, value] : recording.runs.front().problem.tuning) {
            Tuning shown{name, toQString(name), {}};
            for (const VariantResult& run : recording.runs) shown.users << &run;
            tunings.push_back(std::move(shown));
        }
    }
    QStringList named;
    for (const std::string& name : dimensions)
        named << QStringLiteral("%1 = %2").arg(
            toQString(name), distinctValues(recording, [&](const VariantResult& run) {
                return formatCount(run.problem.dimension(name));
            }));
    QStringList parts{named.join(QStringLiteral(", ")),
                      distinctValues(recording, [](const VariantResult& run) {
                          return QString::fromUtf8(dtypeTitle(run.problem.dtype));
                      })};
    std::vector<TuningText> texts;
    for (const Tuning& tuning : tunings) {
        QStringList values;
        for (const VariantResult* run : tuning.users) {
            const QString value = QString::number(run->problem.tuningValue(tuning.name));
            if (!values.contains(value)) values << value;
        }
        texts.push_back({tuning.title.toStdString(),
                         values.join(QStringLiteral(" / ")).toStdString(), values.size() == 1});
    }
    if (!texts.empty()) parts << toQString(tuningsText(texts));
    return parts.join(kSeparator);
}

}  // namespace

QString captionFor(const Recording& recording, const VariantResult& run) {
    return captionFrom(deviceLabel(recording.device), problemLabel(run),
                       dataSourceBadge(recording, run));
}

QString checkScope(const VariantResult& run) {
    if (run.check.comparedElements >= run.outputElements)
        return QStringLiteral("over all %1 elements").arg(formatCount(run.outputElements));
    return QStringLiteral("over %1 sampled elements of %2; every element checked for being written")
        .arg(formatCount(run.check.comparedElements), formatCount(run.outputElements));
}

QString wrongElementText(const VariantResult& run) {
    if (run.check.ok || run.check.wrongOutput.empty()) return {};
    const QString where = QStringLiteral("%1[%2]").arg(toQString(run.check.wrongOutput),
                                                       formatCount(run.check.wrongElement.index));
    if (run.check.wrongElement.unwritten) return QStringLiteral("%1 was never written").arg(where);
    return QStringLiteral("%1 holds %2 where %3 was expected")
        .arg(where, QString::number(run.check.wrongElement.got, 'g', 9),
             QString::number(run.check.wrongElement.expected, 'g', 9));
}

QString problemLabel(const Recording& recording) {
    return recording.runs.empty() ? QString() : combinedProblemLabel(recording);
}

QString captionFor(const Recording& recording) {
    if (recording.runs.empty())
        return captionFrom(deviceLabel(recording.device), QString(), QString());
    return captionFrom(deviceLabel(recording.device), combinedProblemLabel(recording),
                       distinctValues(recording, [&](const VariantResult& run) {
                           return dataSourceBadge(recording, run);
                       }));
}

}  // namespace fusescope::model
