#pragma once
// Adds the Lab to the main window's tabs: it follows the window's GPU probe, and a run's
// recording (or one made elsewhere with --kernel-file) opens in every view.
namespace fusescope {

class MainWindow;
class LabView;

LabView* addLabView(MainWindow& window);

}  // namespace fusescope
