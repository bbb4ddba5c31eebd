#pragma once
// Puts the tile explorer into the main window: a "Tile explorer" tab beside the charts that gets
// most of the height while shown, fed the backends the window probed; a clicked cell or a run
// of one configuration goes to the window's results, charts and memory stage.
#include <QString>

namespace fusescope {

class MainWindow;
class TileExplorerTab;

TileExplorerTab* addTileExplorer(MainWindow& window);

// File > Open of a tile sweep (format fusescope-tiles): shown in the explorer, which comes to
// the front. Empty on success, otherwise the loader's message.
QString openTileSweepInWindow(MainWindow& window, TileExplorerTab& explorer, const QString& path);

}  // namespace fusescope
