#pragma once
// Every chart's title font: its plot's font, 15% larger and bold.
#include <QFont>

namespace fusescope {

inline QFont chartTitleFont(QFont font) {
    font.setPointSizeF(font.pointSizeF() * 1.15);
    font.setBold(true);
    return font;
}

}  // namespace fusescope
