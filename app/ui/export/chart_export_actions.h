#pragma once
// The ways a person exports a chart: File > Export chart (every exportable chart, each in every
// preset), a context menu on each chart (the presets and Copy image), and Ctrl+C, which copies
// the chart under the mouse pointer as a slide-sized image.
#include <QPoint>
#include <functional>

#include "ui/export/chart_export.h"

class QMenu;
class QCustomPlot;
class QWidget;

namespace fusescope {

using ExportOne = std::function<void(QCustomPlot*, const ExportPreset&)>;

// Fills `menu` each time it opens with the exportable plots under `root` (views added later
// included), a submenu of presets for each.
void fillExportMenuOnShow(QMenu* menu, QWidget* root, ExportOne exportOne);
// A context menu with the presets and Copy image on every exportable plot under `root`.
void addChartContextMenus(QWidget* root, ExportOne exportOne);
// Ctrl+C over a chart copies it; elsewhere the key does what the focused widget makes of it.
void installCopyChartShortcut(QWidget* window);

// The exportable plot at `globalPos` inside `window`, or null.
QCustomPlot* plotAt(QWidget* window, const QPoint& globalPos);
// Puts the chart, rendered at the slide preset, on the clipboard.
void copyChartImage(QCustomPlot* plot);

}  // namespace fusescope
