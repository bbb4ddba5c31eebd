#pragma once
// A plan's text read into its title and steps, each field at its line, before the steps are
// checked against the registry and the shipped files.
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include "model/lesson/lesson_plan.h"

namespace fusescope::model {

struct Field {
    int line = 0;
    QString value;
};

// A step as read, before its fields are checked.
struct RawStep {
    int line = 0;
    QString title;
    QStringList text;
    QMap<QString, Field> fields;
    QStringList notes;
};

// Every answer unit's word in plans, in the order plans are told them.
QStringList answerUnitKeys();

// The plan's title goes to `parse.plan.title`, problems of form (unknown, repeated or empty
// fields, no title, no steps) to `parse.errors`.
QVector<RawStep> readPlanSteps(const QString& text, LessonParse& parse);

}  // namespace fusescope::model
