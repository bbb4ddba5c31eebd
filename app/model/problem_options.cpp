#include "model/problem_options.h"

#include <QStringList>

#include <algorithm>
#include <vector>

#include "model/element_count.h"
#include "model/format.h"

namespace fusescope::model {
namespace {

Status invalid(const QString& message) {
    return Status(ErrorCode::InvalidArgument, message.toStdString());
}

QString namesOf(const PipelineSpec& pipeline) {
    QStringList names;
    for (const auto& dimension : pipeline.dimensions)
        names << QString::fromStdString(dimension.name);
    return names.join(QStringLiteral(", "));
}

QString tuningNamesOf(const PipelineSpec& pipeline) {
    QStringList names;
    for (const auto& tuning : pipeline.tunings) names << QString::fromStdString(tuning.name);
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

// "A=1,B=2" as (name, value) pairs; spaces around names and values are ignored.
Result<QList<QPair<QString, QString>>> assignments(const QString& text, const QString& what) {
    QList<QPair<QString, QString>> pairs;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype equals = part.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return invalid(QStringLiteral("%1 \"%2\": write name=value, separated by commas")
                               .arg(what, part.trimmed()));
        pairs.append({part.left(equals).trimmed(), part.mid(equals + 1).trimmed()});
    }
    return pairs;
}

// The tuning parameters by the variant whose kernel takes them, in declaration order (the
// lesson's block_m, block_n, block_h, block_i; the production fusion's tile_m, tile_i).
std::vector<std::vector<const TuningSpec*>> tuningGroupsOf(const PipelineSpec& pipeline) {
    std::vector<std::vector<const TuningSpec*>> groups;
    for (const TuningSpec& tuning : pipeline.tunings) {
        auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
            return g.front()->variant == tuning.variant;
        });
        if (group == groups.end())
            groups.push_back({&tuning});
        else
            group->push_back(&tuning);
    }
    return groups;
}

// "block_m=64,block_n=32" by name, or "64,32,64,64": every tuning parameter of one variant's
// kernel in declaration order (the tile explorer's short spelling), told apart by their count.
Result<QList<QPair<QString, QString>>> tuningAssignments(const PipelineSpec& pipeline,
                                                         const QString& text) {
    if (text.contains(QLatin1Char('=')) || text.trimmed().isEmpty())
        return assignments(text, QStringLiteral("tuning value"));
    const QStringList values = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    const auto groups = tuningGroupsOf(pipeline);
    const auto matching = std::find_if(groups.begin(), groups.end(), [&](const auto& group) {
        return static_cast<qsizetype>(group.size()) == values.size();
    });
    if (matching == groups.end()) {
        QStringList orders;
        for (const auto& group : groups) {
            QStringList names;
            for (const TuningSpec* tuning : group) names << QString::fromStdString(tuning->name);
            QString order = QStringLiteral("%1 values in the order %2")
                                .arg(group.size())
                                .arg(names.join(QStringLiteral(", ")));
            if (groups.size() > 1 && !group.front()->variant.empty())
                order +=
                    QStringLiteral(" (%1)").arg(QString::fromStdString(group.front()->variant));
            orders << order;
        }
        return invalid(QStringLiteral("tuning values \"%1\": give %2, or name=value pairs")
                           .arg(text, orders.isEmpty()
                                          ? QStringLiteral("none (the pipeline takes none)")
                                          : orders.join(QStringLiteral(" or "))));
    }
    QList<QPair<QString, QString>> pairs;
    for (qsizetype k = 0; k < values.size(); ++k)
        pairs.append({QString::fromStdString((*matching)[static_cast<std::size_t>(k)]->name),
                      values[k].trimmed()});
    return pairs;
}

}  // namespace

Status setDimension(const PipelineSpec& pipeline, Problem& problem, const QString& name,
                    const QString& value) {
    const DimensionSpec* dimension = pipeline.findDimension(name.toStdString());
    if (!dimension)
        return invalid(QStringLiteral("pipeline %1 has no dimension %2; it takes %3")
                           .arg(QString::fromStdString(pipeline.name), name, namesOf(pipeline)));
    const ElementCount count = parseElementCount(value);
    if (!count.ok())
        return invalid(QStringLiteral("%1 = %2 is not a whole number from %3 to %4")
                           .arg(name, value, formatCount(dimension->minimum),
                                formatCount(dimension->maximum)));
    problem.dimensions[dimension->name] = count.value;
    return Status::ok();
}

Status setTuning(const PipelineSpec& pipeline, Problem& problem, const QString& name,
                 const QString& value) {
    const TuningSpec* tuning = pipeline.findTuning(name.toStdString());
    if (!tuning)
        return invalid(
            QStringLiteral("pipeline %1 has no tuning parameter %2; it takes %3")
                .arg(QString::fromStdString(pipeline.name), name, tuningNamesOf(pipeline)));
    bool ok = false;
    const int number = value.toInt(&ok);
    if (!ok) return invalid(QStringLiteral("%1 = %2 is not a whole number").arg(name, value));
    problem.tuning[tuning->name] = number;
    return Status::ok();
}

ProblemText problemText(const Problem& problem) {
    ProblemText text;
    QStringList dimensions;
    for (const auto& [name, value] : problem.dimensions)
        dimensions << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
    QStringList tuning;
    for (const auto& [name, value] : problem.tuning)
        tuning << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
    text.dimensions = dimensions.join(QLatin1Char(','));
    text.dtype = QString::fromUtf8(dtypeName(problem.dtype));
    text.tuning = tuning.join(QLatin1Char(','));
    return text;
}

Result<Problem> problemFromText(const PipelineSpec& pipeline, const ProblemText& text) {
    Problem problem = pipeline.defaultProblem();
    if (!text.preset.isEmpty()) {
        const PresetSpec* preset = pipeline.findPreset(text.preset.toStdString());
        if (!preset) {
            QStringList names;
            for (const auto& known : pipeline.presets) names << QString::fromStdString(known.name);
            return invalid(QStringLiteral("pipeline %1 has no preset %2 (%3)")
                               .arg(QString::fromStdString(pipeline.name), text.preset,
                                    names.isEmpty() ? QStringLiteral("it has none")
                                                    : names.join(QStringLiteral(", "))));
        }
        problem = withPreset(problem, *preset);
    }
    Result<QList<QPair<QString, QString>>> dimensions =
        assignments(text.dimensions, QStringLiteral("dimension"));
    if (!dimensions) return dimensions.status();
    for (const auto& [name, value] : *dimensions)
        if (Status s = setDimension(pipeline, problem, name, value); !s) return s;
    if (!text.dtype.isEmpty()) {
        const std::optional<DType> dtype = parseDType(text.dtype.trimmed().toStdString());
        if (!dtype)
            return invalid(
                QStringLiteral("data type %1: say float32 (fp32), bfloat16 (bf16) or tf32 "
                               "(float32 storage, TF32 tensor-core products)")
                    .arg(text.dtype));
        problem.dtype = *dtype;
    }
    Result<QList<QPair<QString, QString>>> tuning = tuningAssignments(pipeline, text.tuning);
    if (!tuning) return tuning.status();
    for (const auto& [name, value] : *tuning)
        if (Status s = setTuning(pipeline, problem, name, value); !s) return s;
    if (Status s = checkProblem(pipeline, problem); !s) return s;
    return problem;
}

QStringList problemHelpLines(const PipelineSpec& pipeline) {
    QStringList lines;
    for (const auto& d : pipeline.dimensions)
        lines << QStringLiteral("%1: %2, %3 to %4 (default %5)")
                     .arg(QString::fromStdString(d.name), QString::fromStdString(d.title),
                          formatCount(d.minimum), formatCount(d.maximum),
                          formatCount(d.defaultValue));
    QStringList dtypes;
    for (DType dtype : pipeline.dtypes)
        dtypes << (dtypeTitle(dtype) == dtypeName(dtype)
                       ? QString::fromUtf8(dtypeName(dtype))
                       : QStringLiteral("%1 = %2").arg(QString::fromUtf8(dtypeName(dtype)),
                                                       QString::fromUtf8(dtypeTitle(dtype))));
    lines << QStringLiteral("dtype: %1 (default %2)")
                 .arg(dtypes.join(QStringLiteral(", ")), dtypes.value(0));
    for (const auto& t : pipeline.tunings) {
        QStringList allowed;
        for (int value : t.allowed) allowed << QString::number(value);
        lines << QStringLiteral("%1 (%2): %3 (default %4)")
                     .arg(QString::fromStdString(t.name), QString::fromStdString(t.title),
                          allowed.join(QStringLiteral(", ")))
                     .arg(t.defaultValue);
    }
    for (const auto& preset : pipeline.presets)
        lines << QStringLiteral("preset %1: %2")
                     .arg(QString::fromStdString(preset.name),
                          QString::fromStdString(preset.title));
    return lines;
}

}  // namespace fusescope::model
