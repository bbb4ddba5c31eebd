#pragma once
// Writes a chart to PNG, SVG or PDF, chosen by the file's suffix. QCustomPlot 2.1 has no
// saveSvg, so SVG goes through QSvgGenerator and QCustomPlot::toPainter.
#include <QSize>
#include <QString>

class QCustomPlot;

namespace fusescope {

inline constexpr QSize kDefaultExportSize{1200, 700};

// Empty on success, otherwise why the file could not be written.
QString exportChart(QCustomPlot& plot, const QString& path, QSize size = kDefaultExportSize);
bool isSupportedChartFormat(const QString& path);

}  // namespace fusescope
