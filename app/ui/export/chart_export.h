#pragma once
// Writes a chart to PNG, SVG or PDF, chosen by the file's suffix. QCustomPlot 2.1 has no
// saveSvg, so SVG goes through QSvgGenerator and QCustomPlot::toPainter.
//
// Presets make slide- and print-ready files: the chart is laid out at a logical size and drawn
// scaled to the preset's pixels, with its text set to the preset's sizes (in the file's pixels),
// so a title reads at 24 px or more and every other text at 16 px or more on a 1920-wide slide.
// Any QCustomPlot can be exported this way: the run charts, the bandwidth chart, the sweep, and
// views other parts add. A plot with an objectName and a "fusescopeExportTitle" property is
// offered by File > Export, its context menu and --export-charts (exportablePlots()).
#include <QImage>
#include <QList>
#include <QSize>
#include <QString>

#include "ui/export/export_text.h"  // what exports leave out

class QCustomPlot;
class QWidget;

namespace fusescope {

inline constexpr QSize kDefaultExportSize{1200, 700};

struct ExportPreset {
    QString key;    // "slide", "half", "print": the --preset name
    QString title;  // "Slide 16:9 (1920×1080)"
    QSize pixels;   // the file's size in pixels (PNG) or drawing units (SVG, PDF)
    double scale;   // file pixels per layout pixel: the chart is laid out at pixels / scale
    int dotsPerInch;
    double titlePixels;  // the title's text height, in file pixels
    double textPixels;   // every other text's (axes, ticks, legend, captions, labels)
};

// Whether a plot has data to show (a plottable with points or cells), not only a message.
bool plotShowsData(QCustomPlot& plot);

// Slide 16:9, half slide, print (300 dpi).
const QList<ExportPreset>& exportPresets();
const ExportPreset* findExportPreset(const QString& key);
QString exportPresetKeys();  // "slide, half, print"

// Empty on success, otherwise why the file could not be written.
QString exportChart(QCustomPlot& plot, const QString& path, QSize size = kDefaultExportSize);
QString exportChart(QCustomPlot& plot, const QString& path, const ExportPreset& preset);
// The chart as an image at the preset (for the clipboard).
QImage renderChart(QCustomPlot& plot, const ExportPreset& preset);
bool isSupportedChartFormat(const QString& path);

// The plots under `root` that offer themselves for export, in the order they were made.
QList<QCustomPlot*> exportablePlots(QWidget* root);
QString exportTitle(const QCustomPlot& plot);  // its title, else its objectName
// The name of its files: its "fusescopeFileStem" property, else its objectName.
QString exportFileStem(const QCustomPlot& plot);

}  // namespace fusescope
