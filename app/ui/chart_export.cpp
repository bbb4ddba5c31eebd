#include "ui/chart_export.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>

#include "ui/export_save.h"
#include "ui/plot.h"
#include "ui/svg_bytes.h"

namespace fusescope {
namespace {

QString suffixOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

QByteArray svgBytes(QCustomPlot& plot, QSize size) {
    return paintSvgBytes<QCPPainter>(
        size, QStringLiteral("FuseScope chart"), QString(),
        [&](QCPPainter& painter) { plot.toPainter(&painter, size.width(), size.height()); });
}

// QCustomPlot's savePdf writes only to a file name; this is the same drawing into memory, one
// page of the chart's size in points.
QByteArray pdfBytes(QCustomPlot& plot, QSize size) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly)) return {};
    {
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("FuseScope"));
        writer.setTitle(QStringLiteral("FuseScope chart"));
        QPageLayout layout(
            QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
            QPageLayout::Portrait, QMarginsF(0, 0, 0, 0), QPageLayout::Point);
        layout.setMode(QPageLayout::FullPageMode);
        writer.setPageLayout(layout);
        QCPPainter painter;
        if (!painter.begin(&writer)) return {};
        painter.setMode(QCPPainter::pmVectorized);
        painter.setWindow(QRect(QPoint(0, 0), size));
        plot.toPainter(&painter, size.width(), size.height());
        painter.end();
    }
    return bytes;
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
    if (suffix == QLatin1String("png")) {
        // Twice the pixels keeps slides sharp on high-DPI projectors.
        error = saveImageAsPng(plot.toPixmap(size.width(), size.height(), 2.0).toImage(), path);
    } else if (suffix == QLatin1String("pdf")) {
        error = saveExportBytes(pdfBytes(plot, size), path);
    } else if (suffix == QLatin1String("svg")) {
        error = saveExportBytes(svgBytes(plot, size), path);
    } else {
        return QObject::tr("unknown chart format '%1': use .png, .svg or .pdf").arg(suffix);
    }
    // Drawing at the export size changed the layout; restore it for the widget on screen.
    plot.replot(QCustomPlot::rpQueuedReplot);
    return error;
}

}  // namespace fusescope
