#pragma once
// Puts the expression lab into the main window: an "Expression lab" tab beside the charts that
// gets most of the height while shown. Run registers the chain and runs every variant of it
// through the window's run path with the run panel's backend, repeats and measuring, so the
// results, the charts, the memory stage and a saved recording show it as any pipeline.
namespace fusescope {

class ExpressionView;
class MainWindow;

ExpressionView* addExpressionView(MainWindow& window);

// Brings the expression lab to the front (View menu).
void showExpressionView(MainWindow& window);

}  // namespace fusescope
