#pragma once
// `fusescope --lesson FILE [--step K] [--answer TEXT[=HANDS] ...] [--reveal]`: opens a lesson
// plan in presenter mode; with --screenshot it renders that step headless (for slides and the
// layout test), from the step's recording, with the answers given and revealed when asked.
#include <QCommandLineParser>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

namespace fusescope {

struct LessonLaunch {
    QString planPath;
    int step = 1;  // from 1
    QStringList answers;
    bool reveal = false;
};

void addLessonOptions(QCommandLineParser& parser);
// Empty when --lesson is not given; `error` says what is wrong otherwise.
std::optional<LessonLaunch> readLessonOptions(const QCommandLineParser& parser, QString* error);

// Renders the step to a PNG of `screenPixels`; returns the process's exit code (errors printed).
int renderLessonStep(const LessonLaunch& launch, const QSize& screenPixels,
                     const QString& screenshotPath);

}  // namespace fusescope
