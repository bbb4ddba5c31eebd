#pragma once
// A lesson plan: an ordered list of steps a teacher leads a class through, each with a short
// Markdown text, what to show (a pipeline's variants run live, or a shipped recording), an
// optional question the class predicts before the reveal, and what the reveal shows. Plans are
// text files a teacher copies and edits; docs/lesson-plans.md describes the format.
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

#include "model/problem_options.h"

namespace fusescope::model {

enum class QuestionKind {
    Number,  // a number with its unit
    Winner,  // which variant is fastest
    Order,   // the variants ordered by time, fastest first
    Limit    // which of the tile model's resources limits a tunable variant at one tile
};

enum class AnswerUnit { Passes, Bytes, Speedup, PeakMegabytes, GBps, Milliseconds };

struct LessonQuestion {
    int line = 0;  // where the question starts in the plan
    QString text;
    QuestionKind kind = QuestionKind::Number;
    AnswerUnit unit = AnswerUnit::Passes;  // Number only
    QString variant;                       // Number: the variant measured
    QString baseline;                      // Speedup: the variant it is measured against
    QStringList choices;                   // Limit: resources of the tile model offered
};

// What a step shows. The step runs `variants` of `pipeline` live where the machine can; where it
// cannot (no GPU for a pipeline only the GPU runs at class speed) it opens `recording`.
struct LessonShow {
    QString pipeline;
    bool runnable = false;  // the step names its pipeline (a run); else it is the recording's
    ProblemText problem;    // preset, dimensions and dtype, as the CLI's options take them
    QStringList variants;
    QString recording;      // a shipped recording's file name, or a path beside the plan
    QString recordingPath;  // resolved on open; empty where the step names none
    // A typed chain for the expression lab; a learner's kernel file the step opens in the Lab
    // (a shipped kernel's file name, or a path beside the plan) and where it was found.
    QString expression;
    QString kernelFile;
    QString kernelPath;
    // A limit question's tile ("64,64,64,128" or "block_m=64,..." as `fusescope-cli resources
    // --tile` takes it) and the shipped tile sweep that measured it.
    QString tile;
    QString tileSweep;
    QString tileSweepPath;
    QString view;  // the window's view the step opens: results, stage, measurement or charts
};

struct LessonReveal {
    QStringList numbers;  // time, passes, bytes, speedup, peak, gbps
    QString chart;        // time, bytes or bandwidth; empty: none
    QString moment;       // the memory stage's moment: end, peak or "pass K"; empty: none
};

struct LessonStep {
    int line = 0;  // the step's heading
    QString title;
    QString text;   // Markdown
    QString notes;  // for the teacher's screen only
    LessonShow show;
    std::optional<LessonQuestion> question;
    LessonReveal reveal;
};

struct LessonPlan {
    QString path;
    QString title;
    QVector<LessonStep> steps;
};

// One problem of a plan, at its line.
struct LessonError {
    int line = 0;
    QString message;
};

struct LessonParse {
    LessonPlan plan;
    QVector<LessonError> errors;  // empty: the plan is valid
    // "FILE:LINE: message", one per line.
    QString errorText() const;
};

// The unit's word in plans ("passes", "peak-mb"), and back.
QString answerUnitKey(AnswerUnit unit);
std::optional<AnswerUnit> answerUnitFromKey(const QString& key);
// The unit as people read it beside a number ("passes", "MB peak in flight", "GB/s requested").
QString answerUnitLabel(AnswerUnit unit);

// Where the shipped plans are: share/fusescope/lessons beside the program's bin/ folder (the
// Debian package and the portable bundle), then the source tree's resources/lessons.
QStringList shippedLessonFolders();
// Where the shipped learner kernels are (the Lab's starters and the lab's solution):
// share/fusescope/lab beside bin/, then the source tree's resources/lab.
QStringList shippedKernelFolders();

// Reads and checks a plan: every field, every pipeline, variant, problem and recording against
// the registry and the shipped recordings (`recordingFolders`, then the plan's own folder).
LessonParse parseLessonPlan(const QString& text, const QString& path,
                            const QStringList& recordingFolders);
// The same from a file, read with the program's size limits.
LessonParse loadLessonPlan(const QString& path, const QStringList& recordingFolders);

}  // namespace fusescope::model
