#pragma once
// An SVG painted into memory (QSvgGenerator on a QBuffer), to be saved atomically afterwards.
// `Painter` is QPainter, or QCPPainter for QCustomPlot charts.
#include <QBuffer>
#include <QByteArray>
#include <QPainter>
#include <QSize>
#include <QString>
#include <QSvgGenerator>

namespace fusescope {

// Empty when the painter could not start.
template <typename Painter, typename Paint>
QByteArray paintSvgBytes(QSize size, const QString& title, const QString& description,
                         Paint&& paint) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly)) return {};
    {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(title);
        generator.setDescription(description);
        Painter painter;
        if (!painter.begin(&generator)) return {};
        paint(painter);
        painter.end();
    }
    return bytes;
}

}  // namespace fusescope
