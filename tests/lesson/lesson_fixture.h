#pragma once
// The shipped plans and recordings the lesson tests read, from the source tree.
#include <QDir>
#include <QString>
#include <QStringList>

#include "model/lesson/lesson_plan.h"

inline QStringList shippedRecordingDirs() {
    return {QStringLiteral(FUSESCOPE_SHIPPED_DIR)};
}

inline QString shippedPlan(const char* name) {
    return QDir(QStringLiteral(FUSESCOPE_LESSONS_DIR)).filePath(QLatin1String(name));
}

// A shipped plan as the program opens it, beside the shipped recordings.
inline fusescope::model::LessonParse loadShippedPlan(const char* name) {
    return fusescope::model::loadLessonPlan(shippedPlan(name), shippedRecordingDirs());
}

// A plan from text, with one step's lines after a title and a step heading.
inline fusescope::model::LessonParse parseStep(const QString& fields) {
    return fusescope::model::parseLessonPlan(QStringLiteral("# Test plan\n\n## A step\n") + fields,
                                             QStringLiteral("test.lesson.md"),
                                             shippedRecordingDirs());
}
