#pragma once
// The reveal of a lesson step: the measured answer to its question, read from a Recording (a
// live run's or a shipped one), the reason in words from the pass model and the program's gap
// explanations, and the memory stage's moment that answers it. Also how far a prediction was.
#include <QString>
#include <QStringList>
#include <optional>

#include "core/status.h"
#include "model/lesson/lesson_plan.h"
#include "model/recording.h"

namespace fusescope::model {

struct MeasuredAnswer {
    double value = 0.0;  // Number: in the question's unit; Winner and Order: 0
    QString text;        // "4 passes", "fused", "fused, two_launch, scratch"
    // What the answer is, before it on the screen: a run's numbers are measured; a tile's limit
    // is the tile model's, over a sweep cell that was measured.
    QString kind = QStringLiteral("Measured");
    QStringList order;  // the step's variants by measured time, fastest first
    QString source;     // "measured on NVIDIA H200 (timing + model)"
    QString reason;     // in words: the pass model, the verdict and the gaps
    // The stage's moment: the variant it shows and the stage time (ns) to play to.
    QString momentVariant;
    std::optional<qint64> momentNs;
};

// Fails with the reason where the recording lacks a run the question needs.
Result<MeasuredAnswer> measureAnswer(const LessonStep& step, const Recording& recording);

// The step's reveal numbers (LessonReveal::numbers), one line per variant: "fused: 3 passes ·
// 0.41 ms · 805 MB requested (pass model)". Variants the results lack are left out.
QStringList revealNumbers(const LessonStep& step, const Recording& recording);

// How a prediction compares with the measured answer.
struct Judgement {
    QString normalized;  // the answer as it is tallied ("4", "fused", "fused, scratch")
    QString offText;     // "2 passes low (50% under)", "right", "wrong", "2 of 3 in place"
    std::optional<double> relativeOff;  // Number: (prediction - measured) / measured
    bool right = false;
};

// Reads a typed answer for the question: a number with an optional unit word or suffix
// ("4", "1.2 GB", "3x", "800 MB", "0.5 ms"), a variant, or variants separated by commas or
// '<', or one of a limit question's choices (in any case). Fails with the reason for a bad unit or
// an unknown variant.
Result<QString> normalizeAnswer(const LessonStep& step, const QString& typed);
// `answer` as normalizeAnswer returns it, against the measured answer.
Judgement judgeAnswer(const LessonStep& step, const QString& answer,
                      const MeasuredAnswer& measured);

}  // namespace fusescope::model
