#include "model/lesson/lesson_plan_steps.h"

#include <QRegularExpression>

namespace fusescope::model {
namespace {

const QStringList kStepFields = {
    QStringLiteral("pipeline"),   QStringLiteral("preset"),   QStringLiteral("dimensions"),
    QStringLiteral("dtype"),      QStringLiteral("variants"), QStringLiteral("recording"),
    QStringLiteral("expression"), QStringLiteral("kernel"),   QStringLiteral("view"),
    QStringLiteral("question"),   QStringLiteral("kind"),     QStringLiteral("unit"),
    QStringLiteral("of"),         QStringLiteral("over"),     QStringLiteral("reveal"),
    QStringLiteral("chart"),      QStringLiteral("moment"),   QStringLiteral("notes"),
    QStringLiteral("tile"),       QStringLiteral("tiles"),    QStringLiteral("choices")};

}  // namespace

QVector<RawStep> readPlanSteps(const QString& text, LessonParse& parse) {
    static const QRegularExpression fieldLine(QStringLiteral("^([a-z][a-z-]*):(?:\\s+(.*))?$"));
    QVector<RawStep> raws;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int index = 0; index < lines.size(); ++index) {
        const int line = index + 1;
        QString content = lines[index];
        if (content.endsWith(QLatin1Char('\r'))) content.chop(1);
        if (content.startsWith(QLatin1String("## "))) {
            RawStep step;
            step.line = line;
            step.title = content.mid(3).trimmed();
            if (step.title.isEmpty())
                parse.errors.push_back({line, QStringLiteral("a step needs a title after ##")});
            raws.push_back(step);
            continue;
        }
        if (content.startsWith(QLatin1String("# ")) && parse.plan.title.isEmpty() &&
            raws.isEmpty()) {
            parse.plan.title = content.mid(2).trimmed();
            continue;
        }
        if (raws.isEmpty()) {
            if (!content.trimmed().isEmpty() && parse.plan.title.isEmpty())
                parse.errors.push_back(
                    {line, QStringLiteral("a plan starts with its title: # Title")});
            continue;
        }
        RawStep& step = raws.back();
        const QRegularExpressionMatch match = fieldLine.match(content);
        if (!match.hasMatch()) {
            step.text << content;
            continue;
        }
        const QString name = match.captured(1);
        const QString value = match.captured(2).trimmed();
        if (!kStepFields.contains(name)) {
            parse.errors.push_back(
                {line, QStringLiteral("unknown field '%1:' (fields: %2; indent a text line that "
                                      "starts this way)")
                           .arg(name, kStepFields.join(QStringLiteral(", ")))});
        } else if (name == QLatin1String("notes")) {
            step.notes << value;
        } else if (step.fields.contains(name)) {
            parse.errors.push_back({line, QStringLiteral("%1: given twice in this step (first at "
                                                         "line %2)")
                                              .arg(name)
                                              .arg(step.fields.value(name).line)});
        } else if (value.isEmpty()) {
            parse.errors.push_back({line, QStringLiteral("%1: has no value").arg(name)});
        } else {
            step.fields.insert(name, {line, value});
        }
    }
    if (parse.plan.title.isEmpty() && parse.errors.isEmpty())
        parse.errors.push_back({1, QStringLiteral("a plan starts with its title: # Title")});
    if (raws.isEmpty())
        parse.errors.push_back(
            {int(lines.size()),
             QStringLiteral("the plan has no steps (each starts with ## Title)")});
    return raws;
}

}  // namespace fusescope::model
