#pragma once
// A class's progress through a lesson plan: the step it is on, every answer given (a typed
// answer or a show of hands, tallied), and for each revealed question what was measured. Saved
// after every change, so reopening the plan continues where the class stopped; exported as CSV.
#include <QString>
#include <QVector>
#include <optional>

#include "core/status.h"
#include "model/lesson/lesson_reveal.h"

namespace fusescope::model {

struct LessonAnswer {
    QString answer;  // as normalizeAnswer returns it
    int hands = 1;   // how many in the class gave it
};

struct LessonStepProgress {
    QVector<LessonAnswer> answers;
    bool revealed = false;
    std::optional<MeasuredAnswer> measured;  // set at the reveal
};

struct LessonSession {
    QString planPath;
    int current = 0;
    QVector<LessonStepProgress> steps;

    // Tallies `answer` with `hands` more (a new row for an answer not given before).
    void addAnswer(int step, const QString& answer, int hands);
    int handsFor(int step) const;
};

// A fresh session for a plan of `stepCount` steps.
LessonSession startLessonSession(const QString& planPath, int stepCount);
// Where a plan's progress is kept in `folder`: one file per plan, named after the plan's path.
QString lessonSessionPath(const QString& folder, const QString& planPath);
// Saves atomically; loads a saved session for a plan of `stepCount` steps (fails with the
// reason for a file that is not one, or for another plan).
Status saveLessonSession(const LessonSession& session, const QString& path);
Result<LessonSession> loadLessonSession(const QString& path, const QString& planPath,
                                        int stepCount);

// One row per question and answer: the step, the question, the answer and its hands, the
// measured value, how far off it was and where the value came from.
QByteArray lessonCsv(const LessonPlan& plan, const LessonSession& session);
Status exportLessonCsv(const LessonPlan& plan, const LessonSession& session, const QString& path);

}  // namespace fusescope::model
