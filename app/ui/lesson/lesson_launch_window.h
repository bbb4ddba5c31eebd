#pragma once
// A lesson plan opened over the main window: presenter mode full screen, live runs through the
// window's RunController once the backends are known, each reveal's recording shown in the
// window's views, the progress kept in the user's data folder. Shift+F5 presents it again after Esc
// (F5 is the window's presentation layout).
#include <QString>

namespace fusescope {

class MainWindow;

// Empty on success, else every problem of the plan at its line. `step` from 0; -1 continues
// where the class stopped.
QString openLessonOver(MainWindow& window, const QString& planPath, int step);
// File > Open lesson plan: a file dialog in the shipped plans' folder, then openLessonOver.
void openLessonDialog(MainWindow& window);

}  // namespace fusescope
