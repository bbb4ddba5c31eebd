#include "ui/chart_export.h"

#include <QFileInfo>
#include <QSvgGenerator>

#include "ui/plot.h"

namespace fusescope {
namespace {

QString suffixOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

QString exportSvg(QCustomPlot& plot, const QString& path, QSize size) {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(QStringLiteral("FuseScope chart"));
    QCPPainter painter;
    if (!painter.begin(&generator)) return QObject::tr("cannot write %1").arg(path);
    plot.toPainter(&painter, size.width(), size.height());
    painter.end();
    return {};
}

}  // namespace

bool isSupportedChartFormat(const QString& path) {
    const QString suffix = suffixOf(path);
    return suffix == QLatin1String("png") || suffix == QLatin1String("svg") ||
           suffix == QLatin1String("pdf");
}

QString exportChart(QCustomPlot& plot, const QString& path, QSize size) {
    const QString suffix = suffixOf(path);
    QString error;
    bool written = false;
    if (suffix == QLatin1String("png")) {
        // Twice the pixels keeps slides sharp on high-DPI projectors.
        written = plot.savePng(path, size.width(), size.height(), 2.0);
    } else if (suffix == QLatin1String("pdf")) {
        written = plot.savePdf(path, size.width(), size.height());
    } else if (suffix == QLatin1String("svg")) {
        error = exportSvg(plot, path, size);
        written = error.isEmpty();
    } else {
        return QObject::tr("unknown chart format '%1': use .png, .svg or .pdf").arg(suffix);
    }
    if (!written && error.isEmpty()) error = QObject::tr("cannot write %1").arg(path);
    // Drawing at the export size changed the layout; restore it for the widget on screen.
    plot.replot(QCustomPlot::rpQueuedReplot);
    if (written && QFileInfo(path).size() == 0) error = QObject::tr("%1 came out empty").arg(path);
    return error;
}

}  // namespace fusescope
