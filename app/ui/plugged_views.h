#pragma once
// Adds the views other parts of the program provide (the memory stage, issue 4; the live
// bandwidth chart, issue 3) to the main window's tabs and feeds them, where they are built.
namespace fusescope {

class MainWindow;

void addPluggedViews(MainWindow& window);

}  // namespace fusescope
