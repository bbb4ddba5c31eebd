#include "ui/text_fit/text_item_placement.h"

#include <algorithm>

namespace fusescope::text_fit {
namespace {

// The bodies of bars (stacked ones from the bar below) and the extent of line items, in
// the plot's pixels: text is kept off them.
QList<QRectF> plotShapes(QCustomPlot* plot) {
    QList<QRectF> shapes;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
        if (!bars || !bars->realVisibility()) continue;
        QCPAxis* keys = bars->keyAxis();
        const bool vertical = keys->orientation() == Qt::Horizontal;
        for (int index = 0; index < bars->dataCount(); ++index) {
            const double key = bars->dataMainKey(index);
            const QPointF top = bars->dataPixelPosition(index);
            const QPointF base = bars->barBelow() && index < bars->barBelow()->dataCount()
                                     ? bars->barBelow()->dataPixelPosition(index)
                                     : bars->coordsToPixels(key, bars->baseValue());
            double half = bars->width() / 2;
            if (bars->widthType() == QCPBars::wtPlotCoords)
                half = std::abs(keys->coordToPixel(key + half) - keys->coordToPixel(key));
            else if (bars->widthType() == QCPBars::wtAxisRectRatio)
                half *= vertical ? keys->axisRect()->width() : keys->axisRect()->height();
            const double at = keys->coordToPixel(key);
            shapes << (vertical ? QRectF(QPointF(at - half, top.y()), QPointF(at + half, base.y()))
                                : QRectF(QPointF(top.x(), at - half), QPointF(base.x(), at + half)))
                          .normalized();
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* line = qobject_cast<QCPItemLine*>(plot->item(i));
            line && line->realVisibility()) {
            const double halfPen = std::max(1.0, line->pen().widthF() / 2);
            shapes << QRectF(line->start->pixelPosition(), line->end->pixelPosition())
                          .normalized()
                          .adjusted(-halfPen, -halfPen, halfPen, halfPen);
        }
    return shapes;
}

}  // namespace

Placement placeTextItems(QCustomPlot* plot, const QList<QCPItemText*>& texts) {
    // Side by side, texts closer than this read as one: "scratchtwo_launch".
    constexpr double kGap = 4.0;
    QList<QPointF> points;
    QList<QRectF> shapes = plotShapes(plot);
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = plot->plottable(i);
        if (auto* graph = qobject_cast<QCPGraph*>(plottable)) {
            // A drawn marker is a disk, not a point: text keeps off all of it.
            const QCPScatterStyle& marker = graph->scatterStyle();
            const double half = marker.isNone() ? 0.0 : marker.size() / 2 + 1.0;
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                const QPointF at = graph->coordsToPixels(it->key, it->value);
                points << at;
                if (half > 0.0) shapes << QRectF(at.x() - half, at.y() - half, 2 * half, 2 * half);
            }
        } else if (auto* bars = qobject_cast<QCPBars*>(plottable)) {
            for (int index = 0; index < bars->dataCount(); ++index)
                points << bars->dataPixelPosition(index);
        }
    }
    double lacking = 0.0;
    QList<QCPItemText*> unresolved;
    QList<QRectF> placed;
    // Legends inside an axis rect are taken as already placed text.
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPLayoutElement* element : rect->insetLayout()->elements(false))
            if (auto* legend = qobject_cast<QCPLegend*>(element); legend && legend->visible())
                placed << QRectF(legend->outerRect());
    for (QCPItemText* text : texts) {
        QRectF box =
            QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
        QCPAxisRect* area = text->clipAxisRect() ? text->clipAxisRect() : plot->axisRect();
        const QRectF bounds = area ? QRectF(area->rect()) : QRectF(plot->viewport());
        double dx = 0.0;
        if (box.left() < bounds.left())
            dx = bounds.left() - box.left();
        else if (box.right() > bounds.right())
            dx = bounds.right() - box.right();
        if (box.width() > bounds.width()) dx = bounds.left() - box.left();
        const auto clearance = [&](double dy, bool upward) {
            for (int step = 0; step < 8; ++step) {
                const QRectF moved = box.translated(dx, dy);
                const QRectF inner = moved.adjusted(1, 1, -1, -1);
                double shift = 0.0;
                const auto avoid = [&](const QRectF& other) {
                    if (other.intersects(inner))
                        shift = std::max(shift, upward ? moved.bottom() - other.top() + 2.0
                                                       : other.bottom() - moved.top() + 2.0);
                };
                for (const QRectF& other : placed) avoid(other.adjusted(-kGap, 0, kGap, 0));
                for (const QRectF& shape : shapes) avoid(shape);
                for (const QPointF& point : points)
                    if (inner.contains(point))
                        shift = std::max(shift, upward ? moved.bottom() - point.y() + 2.0
                                                       : point.y() - moved.top() + 2.0);
                if (shift <= 0.0) break;
                dy += upward ? -shift : shift;
            }
            return dy;
        };
        double dy = clearance(0.0, true);
        // No room above: below the clashing text, where that stays clear of the data.
        if (box.top() + dy < bounds.top()) {
            const double down = clearance(0.0, false);
            const QRectF below = box.translated(dx, down);
            const QRectF inner = below.adjusted(1, 1, -1, -1);
            const bool coversData =
                std::any_of(points.cbegin(), points.cend(),
                            [&](const QPointF& p) { return inner.contains(p); }) ||
                std::any_of(shapes.cbegin(), shapes.cend(),
                            [&](const QRectF& shape) { return inner.intersects(shape); });
            if (below.bottom() <= bounds.bottom() && !coversData) dy = down;
        }
        if (box.top() + dy < bounds.top()) {
            lacking = std::max(lacking, bounds.top() - (box.top() + dy));
            dy = bounds.top() - box.top();
        }
        box.translate(dx, dy);
        if (dx != 0.0 || dy != 0.0)
            text->position->setPixelPosition(text->position->pixelPosition() + QPointF(dx, dy));
        const QRectF inner = box.adjusted(1, 1, -1, -1);
        // A text item clipped to its axis rect that runs past it is cut; one drawn unclipped
        // must stay inside the plot.
        const QRectF drawnIn = text->clipToAxisRect() ? bounds : QRectF(plot->viewport());
        const bool clear =
            drawnIn.adjusted(-1, -1, 1, 1).contains(box) &&
            std::none_of(placed.cbegin(), placed.cend(),
                         [&](const QRectF& other) {
                             return other.adjusted(-kGap, 0, kGap, 0).intersects(inner);
                         }) &&
            std::none_of(shapes.cbegin(), shapes.cend(),
                         [&](const QRectF& shape) { return shape.intersects(inner); }) &&
            std::none_of(points.cbegin(), points.cend(),
                         [&](const QPointF& point) { return inner.contains(point); });
        if (clear)
            placed << box;
        else
            unresolved << text;
    }
    return {lacking, unresolved};
}

}  // namespace fusescope::text_fit
