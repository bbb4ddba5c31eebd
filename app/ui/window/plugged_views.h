#pragma once
// Adds the memory stage and the live bandwidth chart to the main window's tabs and feeds them.
namespace fusescope {

class MainWindow;

void addPluggedViews(MainWindow& window);

}  // namespace fusescope
