#pragma once
// Colours and type sizes of the memory stage. The normal theme follows the widget's palette
// (light or dark); the lesson theme is high contrast with large type for a classroom projector.
#include <QColor>
#include <QPalette>

#include "model/stage/stage_timeline.h"

namespace fusescope {

struct StageTheme {
    bool lesson = false;
    QColor background;
    QColor panel;
    QColor panelBorder;
    QColor text;
    QColor mutedText;
    QColor tileEmpty;
    QColor accent;   // the playhead and the running kernel
    QColor success;  // "finished"
    QColor inputColors[2];
    QColor intermediate;
    QColor output;
    // Font pixel size as a fraction of the frame height: type scales with the export size.
    double fontFraction = 1.0 / 52.0;
    double lineWidth = 1.5;

    static StageTheme normal(const QPalette& palette);
    static StageTheme lessonMode();

    // Inputs take their colours in declaration order; the intermediate and outputs have theirs.
    QColor arrayColor(const model::StageTimeline& timeline, int arrayIndex) const;
};

}  // namespace fusescope
