#include "ui/stage/stage_theme.h"

namespace fusescope {

StageTheme StageTheme::normal(const QPalette& palette) {
    StageTheme theme;
    theme.background = palette.color(QPalette::Window);
    const bool dark = theme.background.lightnessF() < 0.5;
    theme.panel = palette.color(QPalette::Base);
    theme.panelBorder = palette.color(QPalette::Mid);
    theme.text = palette.color(QPalette::WindowText);
    theme.mutedText = dark ? theme.text.darker(140) : theme.text.lighter(220);
    theme.tileEmpty = dark ? QColor(58, 62, 70) : QColor(222, 225, 230);
    theme.accent = dark ? QColor(255, 214, 10) : QColor(214, 40, 57);
    theme.success = dark ? QColor(80, 220, 120) : QColor(20, 140, 60);
    theme.inputColors[0] = dark ? QColor(77, 163, 255) : QColor(30, 110, 220);
    theme.inputColors[1] = dark ? QColor(46, 204, 182) : QColor(0, 145, 125);
    theme.intermediate = dark ? QColor(255, 146, 43) : QColor(230, 110, 0);
    theme.output = dark ? QColor(190, 130, 255) : QColor(135, 70, 210);
    return theme;
}

StageTheme StageTheme::lessonMode() {
    StageTheme theme;
    theme.lesson = true;
    theme.background = Qt::black;
    theme.panel = QColor(12, 12, 12);
    theme.panelBorder = QColor(200, 200, 200);
    theme.text = Qt::white;
    theme.mutedText = QColor(210, 210, 210);
    theme.tileEmpty = QColor(45, 45, 45);
    theme.accent = QColor(255, 230, 0);
    theme.success = QColor(0, 255, 120);
    theme.inputColors[0] = QColor(60, 170, 255);
    theme.inputColors[1] = QColor(0, 235, 200);
    theme.intermediate = QColor(255, 140, 0);
    theme.output = QColor(225, 120, 255);
    theme.fontFraction = 1.0 / 44.0;
    theme.lineWidth = 2.5;
    return theme;
}

QColor StageTheme::arrayColor(const model::StageTimeline& timeline, int arrayIndex) const {
    if (arrayIndex < 0) return intermediate;
    const model::StageArray& array = timeline.arrays[arrayIndex];
    if (array.isIntermediate || array.role == model::StageArrayRole::Scratch) return intermediate;
    if (array.role == model::StageArrayRole::Output) return output;
    int inputIndex = 0;
    for (int i = 0; i < arrayIndex; ++i)
        if (timeline.arrays[i].role == model::StageArrayRole::Input) ++inputIndex;
    return inputColors[inputIndex % 2];
}

}  // namespace fusescope
