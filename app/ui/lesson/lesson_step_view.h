#pragma once
// What the presenter shows of one lesson step, as plain data: the driver fills it, the
// presenter and the teacher's notes window paint it.
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

#include "model/stage/stage_timeline.h"

namespace fusescope {

struct LessonAnswerRow {
    QString answer;
    int hands = 0;
    QString off;  // after the reveal: "right", "2 passes low (50.0% under)"
};

struct LessonStepView {
    QString lessonTitle;
    QString heading;  // "Step 2 of 7: Counting passes"
    QString source;   // where the numbers come from, in words
    QString text;     // Markdown
    QString question;
    QString answerHint;  // "answer in passes", "name a variant: ..."
    QVector<LessonAnswerRow> answers;
    int hands = 0;
    QString status;  // "running live on the CPU backend ...", an error, or empty
    bool canReveal = false;
    bool revealed = false;
    // The reveal: the measured answer, the numbers per variant, the reason and the source.
    QString measured;
    QString measuredKind;  // "Measured", or what else the answer is (MeasuredAnswer::kind)
    QStringList numbers;
    QString reason;
    QString measuredSource;
    // The memory stage, played to the moment that answers the question.
    std::optional<model::StageTimeline> stage;
    qint64 stageMomentNs = 0;
    // For the teacher's screen.
    QString notes;
    QString nextStep;
};

}  // namespace fusescope
