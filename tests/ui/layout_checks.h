#pragma once
// Finds text that a person could not read on a laid-out window: chart text (axis and tick labels,
// legend, title and caption elements, text items) cut by its plot or overlapping other text or
// the plotted data, and labels too small for their text or on top of each other. Each problem is
// one line naming the widget, the text and the rectangles.
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QFontMetricsF>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRectF>
#include <QScrollArea>
#include <QStringList>
#include <QStyle>
#include <QTextDocument>
#include <QWidget>
#include <utility>
#include <vector>

#include "ui/charts/plot.h"
#include "ui/charts/plot_axis_rects.h"

namespace fusescope::testing {

struct PlacedText {
    QString what;   // "tick label '0.25' of the left axis"
    QRectF rect;    // in the plot's pixels
    QString group;  // texts read side by side (one axis's tick labels, text items) keep a gap
};

// Pixels between texts read side by side: less, and "scratch" "two_launch" read as one word.
constexpr double kLeastGap = 3.0;

inline QString describe(const QRectF& rect) {
    return QStringLiteral("(%1,%2 %3x%4)")
        .arg(rect.x(), 0, 'f', 0)
        .arg(rect.y(), 0, 'f', 0)
        .arg(rect.width(), 0, 'f', 0)
        .arg(rect.height(), 0, 'f', 0);
}

inline QString plotName(const QCustomPlot& plot) {
    return plot.objectName().isEmpty() ? QString::fromLatin1(plot.metaObject()->className())
                                       : plot.objectName();
}

// Where QCustomPlot draws an axis's tick labels and label (it keeps them private; this follows
// QCPAxisPainterPrivate: ticks outward by tickLengthOut, then padding, then the text).
inline void axisTexts(QCPAxis* axis, std::vector<PlacedText>& out) {
    if (!axis->realVisibility()) return;
    const QRect rect = axis->axisRect()->rect();
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    // A colour scale's axis is named as such: "right" would point at the plot's own right axis.
    const bool bar = qobject_cast<QCPColorScale*>(axis->axisRect()->parentLayerable()) != nullptr;
    const QString side = bar                                     ? QStringLiteral("colour scale's")
                         : axis->axisType() == QCPAxis::atLeft   ? QStringLiteral("left")
                         : axis->axisType() == QCPAxis::atRight  ? QStringLiteral("right")
                         : axis->axisType() == QCPAxis::atBottom ? QStringLiteral("bottom")
                                                                 : QStringLiteral("top");
    const QFontMetricsF tickMetrics(axis->tickLabelFont());
    const double offset =
        axis->offset() + std::max(0, axis->tickLengthOut()) + axis->tickLabelPadding();
    double labelDistance = offset;
    if (axis->tickLabels()) {
        const QVector<double>& positions = axis->tickVector();
        const QVector<QString>& labels = axis->tickVectorLabels();
        double extent = 0.0;
        for (int i = 0; i < positions.size() && i < labels.size(); ++i) {
            if (!axis->range().contains(positions[i]) || labels[i].isEmpty()) continue;
            const double at = axis->coordToPixel(positions[i]);
            const QSizeF size = tickMetrics.size(0, labels[i]);
            QRectF box;
            if (horizontal) {
                // Labels turned on end (rotation ±90) stand below their tick.
                const QSizeF drawn = std::abs(std::abs(axis->tickLabelRotation()) - 90.0) < 1.0
                                         ? size.transposed()
                                         : size;
                const double y = axis->axisType() == QCPAxis::atBottom
                                     ? rect.bottom() + offset
                                     : rect.top() - offset - drawn.height();
                box = QRectF(at - drawn.width() / 2, y, drawn.width(), drawn.height());
                extent = std::max(extent, drawn.height());
            } else {
                const double x = axis->axisType() == QCPAxis::atLeft
                                     ? rect.left() - offset - size.width()
                                     : rect.right() + offset;
                box = QRectF(x, at - size.height() / 2, size.width(), size.height());
                extent = std::max(extent, size.width());
            }
            out.push_back({QStringLiteral("tick label '%1' of the %2 axis").arg(labels[i], side),
                           box, QStringLiteral("ticks %1").arg(quintptr(axis))});
        }
        labelDistance += extent + axis->labelPadding();
    }
    if (axis->label().isEmpty()) return;
    const QSizeF size = QFontMetricsF(axis->labelFont()).size(0, axis->label());
    QRectF box;
    if (horizontal) {
        const double y = axis->axisType() == QCPAxis::atBottom
                             ? rect.bottom() + labelDistance
                             : rect.top() - labelDistance - size.height();
        box = QRectF(rect.center().x() - size.width() / 2, y, size.width(), size.height());
    } else {
        // Drawn turned by 90 degrees along the axis.
        const double x = axis->axisType() == QCPAxis::atLeft
                             ? rect.left() - labelDistance - size.height()
                             : rect.right() + labelDistance;
        box = QRectF(x, rect.center().y() - size.width() / 2, size.height(), size.width());
    }
    out.push_back(
        {QStringLiteral("label '%1' of the %2 axis").arg(axis->label(), side), box, QString()});
}

// Every piece of text the plot draws now, with its rectangle.
inline std::vector<PlacedText> plotTexts(QCustomPlot& plot) {
    std::vector<PlacedText> texts;
    for (QCPAxisRect* rect : everyAxisRect(plot))
        for (QCPAxis* axis : rect->axes()) axisTexts(axis, texts);
    const QList<QCPLayoutElement*> elements = plot.plotLayout()->elements(true);
    for (QCPLayoutElement* element : elements) {
        if (auto* text = qobject_cast<QCPTextElement*>(element)) {
            if (!text->visible() || text->text().isEmpty()) continue;
            const QSizeF size = QFontMetricsF(text->font()).size(0, text->text());
            const QRectF outer = text->outerRect();
            // Placed in its cell by its text flags, as QCPTextElement draws it.
            const int flags = text->textFlags();
            const double x = (flags & Qt::AlignRight)  ? outer.right() - size.width()
                             : (flags & Qt::AlignLeft) ? outer.left()
                                                       : outer.center().x() - size.width() / 2;
            texts.push_back(
                {QStringLiteral("text element '%1'").arg(text->text()),
                 QRectF(x, outer.center().y() - size.height() / 2, size.width(), size.height()),
                 QString()});
        }
        if (auto* legend = qobject_cast<QCPLegend*>(element)) {
            if (!legend->visible() || legend->itemCount() == 0) continue;
            for (int i = 0; i < legend->itemCount(); ++i) {
                QCPAbstractLegendItem* item = legend->item(i);
                if (!item) continue;  // an empty cell of a wrapped legend
                auto* plottableItem = qobject_cast<QCPPlottableLegendItem*>(item);
                const QString name = plottableItem ? plottableItem->plottable()->name() : QString();
                // An item draws its whole text even where its cell is narrower.
                const QSize drawn = item->minimumOuterSizeHint();
                const QRectF rect(item->outerRect().topLeft(),
                                  QSizeF(std::max(item->outerRect().width(), drawn.width()),
                                         std::max(item->outerRect().height(), drawn.height())));
                texts.push_back({QStringLiteral("legend item '%1'").arg(name), rect, QString()});
            }
        }
    }
    for (int i = 0; i < plot.itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(plot.item(i));
        if (!text || !text->visible() || text->text().isEmpty()) continue;
        if (!text->layer() || !text->layer()->visible()) continue;
        const QRectF box =
            QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
        texts.push_back(
            {QStringLiteral("text item '%1'").arg(text->text()), box, QStringLiteral("items")});
    }
    return texts;
}

// The pixel positions of every data point the plot shows (graph points, bar tops). A graph's
// points outside its axis rect are clipped, not drawn: a roof line sampled from the left edge
// may start below the value axis's range.
inline std::vector<QPointF> plotDataPoints(QCustomPlot& plot) {
    std::vector<QPointF> points;
    for (int i = 0; i < plot.plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = plot.plottable(i);
        if (!plottable->visible()) continue;
        if (auto* graph = qobject_cast<QCPGraph*>(plottable)) {
            const QRectF drawn =
                QRectF(graph->keyAxis()->axisRect()->rect()).adjusted(-1, -1, 1, 1);
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                const QPointF point = graph->coordsToPixels(it->key, it->value);
                if (drawn.contains(point)) points.push_back(point);
            }
        } else if (auto* bars = qobject_cast<QCPBars*>(plottable)) {
            // The middle of each bar's top edge (stacked bars included).
            for (int index = 0; index < bars->dataCount(); ++index)
                points.push_back(bars->dataPixelPosition(index));
        }
    }
    return points;
}

struct PlacedShape {
    QString what;  // "bar 2 of 'read (model)'"
    QRectF rect;   // in the plot's pixels
};

// The bodies of bars (stacked ones from the bar below) and the extent of line items: text on
// them is hard to read and hides what they show.
inline std::vector<PlacedShape> plotShapes(QCustomPlot& plot) {
    std::vector<PlacedShape> shapes;
    for (int i = 0; i < plot.plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(plot.plottable(i));
        if (!bars || !bars->realVisibility()) continue;
        QCPAxis* keys = bars->keyAxis();
        for (int index = 0; index < bars->dataCount(); ++index) {
            const double key = bars->dataMainKey(index);
            const QPointF top = bars->dataPixelPosition(index);
            const QPointF base = bars->barBelow() && index < bars->barBelow()->dataCount()
                                     ? bars->barBelow()->dataPixelPosition(index)
                                     : bars->coordsToPixels(key, bars->baseValue());
            double left = 0.0, right = 0.0;
            if (bars->widthType() == QCPBars::wtPlotCoords) {
                left = keys->coordToPixel(key - bars->width() / 2);
                right = keys->coordToPixel(key + bars->width() / 2);
            } else {
                const double half = bars->widthType() == QCPBars::wtAbsolute
                                        ? bars->width() / 2
                                        : bars->width() * keys->axisRect()->width() / 2;
                left = keys->coordToPixel(key) - half;
                right = keys->coordToPixel(key) + half;
            }
            const bool vertical = keys->orientation() == Qt::Horizontal;
            const QRectF body = vertical ? QRectF(QPointF(left, top.y()), QPointF(right, base.y()))
                                         : QRectF(QPointF(top.x(), left), QPointF(base.x(), right));
            if (body.normalized().height() < 1 || body.normalized().width() < 1) continue;
            shapes.push_back(
                {QStringLiteral("bar %1 of '%2'").arg(index).arg(bars->name()), body.normalized()});
        }
    }
    for (int i = 0; i < plot.itemCount(); ++i) {
        auto* line = qobject_cast<QCPItemLine*>(plot.item(i));
        if (!line || !line->realVisibility()) continue;
        const double halfPen = std::max(1.0, line->pen().widthF() / 2);
        shapes.push_back({QStringLiteral("line item"),
                          QRectF(line->start->pixelPosition(), line->end->pixelPosition())
                              .normalized()
                              .adjusted(-halfPen, -halfPen, halfPen, halfPen)});
    }
    return shapes;
}

// The legend's texts and those whose description starts with `kind`, each with its rectangle less
// `tolerance` pixels a side: the texts that must keep off shapes or data points.
inline std::vector<std::pair<const PlacedText*, QRectF>> textsKeptClear(
    const std::vector<PlacedText>& texts, QLatin1String kind, double tolerance) {
    std::vector<std::pair<const PlacedText*, QRectF>> kept;
    for (const PlacedText& text : texts)
        if (text.what.startsWith(QLatin1String("legend")) || text.what.startsWith(kind))
            kept.emplace_back(&text,
                              text.rect.adjusted(tolerance, tolerance, -tolerance, -tolerance));
    return kept;
}

// Problems of one laid-out plot; `tolerance` pixels of touching are allowed.
inline QStringList plotProblems(QCustomPlot& plot, double tolerance = 1.0) {
    QStringList problems;
    const QString name = plotName(plot);
    const std::vector<PlacedText> texts = plotTexts(plot);
    const QRectF bounds =
        QRectF(plot.rect()).adjusted(-tolerance, -tolerance, tolerance, tolerance);
    for (const PlacedText& text : texts)
        if (!bounds.contains(text.rect))
            problems << QStringLiteral("%1: %2 %3 is cut by the plot %4")
                            .arg(name, text.what, describe(text.rect), describe(plot.rect()));
    for (std::size_t a = 0; a < texts.size(); ++a)
        for (std::size_t b = a + 1; b < texts.size(); ++b) {
            const QRectF overlap = texts[a].rect.intersected(texts[b].rect);
            if (overlap.width() > tolerance && overlap.height() > tolerance) {
                problems << QStringLiteral("%1: %2 %3 overlaps %4 %5")
                                .arg(name, texts[a].what, describe(texts[a].rect), texts[b].what,
                                     describe(texts[b].rect));
                continue;
            }
            // Side by side on one line, read as one: "scratchtwo_launch".
            if (texts[a].group.isEmpty() || texts[a].group != texts[b].group) continue;
            const QRectF& left =
                texts[a].rect.left() <= texts[b].rect.left() ? texts[a].rect : texts[b].rect;
            const QRectF& right = &left == &texts[a].rect ? texts[b].rect : texts[a].rect;
            const double sharedHeight =
                std::min(left.bottom(), right.bottom()) - std::max(left.top(), right.top());
            if (sharedHeight > tolerance && right.left() - left.right() < kLeastGap)
                problems << QStringLiteral("%1: %2 %3 and %4 %5 touch (less than %6 px apart)")
                                .arg(name, texts[a].what, describe(texts[a].rect), texts[b].what,
                                     describe(texts[b].rect))
                                .arg(kLeastGap);
        }
    const std::vector<PlacedShape> shapes = plotShapes(plot);
    for (const auto& [text, inner] : textsKeptClear(texts, QLatin1String("text item"), tolerance))
        for (const PlacedShape& shape : shapes)
            if (inner.intersects(shape.rect)) {
                problems << QStringLiteral("%1: %2 %3 sits on %4 %5")
                                .arg(name, text->what, describe(text->rect), shape.what,
                                     describe(shape.rect));
                break;
            }
    const std::vector<QPointF> points = plotDataPoints(plot);
    for (const auto& [text, inner] : textsKeptClear(texts, QLatin1String("text"), tolerance))
        for (const QPointF& point : points)
            if (inner.contains(point)) {
                problems << QStringLiteral("%1: %2 %3 covers the data point at (%4,%5)")
                                .arg(name, text->what, describe(text->rect))
                                .arg(point.x(), 0, 'f', 0)
                                .arg(point.y(), 0, 'f', 0);
                break;
            }
    return problems;
}

// A label's text fits its rectangle (wrapped labels: at its width; elided text is fine).
inline bool labelTextFits(const QLabel& label) {
    if (label.text().isEmpty() || !label.pixmap().isNull()) return true;
    const QRect room = label.contentsRect().adjusted(label.margin(), label.margin(),
                                                     -label.margin(), -label.margin());
    if (Qt::mightBeRichText(label.text()) && label.textFormat() != Qt::PlainText) return true;
    if (label.wordWrap()) return label.heightForWidth(label.width()) <= label.height() + 1;
    const QSizeF needed = QFontMetricsF(label.font()).size(0, label.text());
    return needed.width() <= room.width() + 1 && needed.height() <= room.height() + 1;
}

// The part of a widget a person can see: inside every scroll area's viewport above it.
inline QRect visibleRectInWindow(const QWidget& widget) {
    QRect visible(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size());
    for (const QWidget* parent = widget.parentWidget(); parent && !parent->isWindow();
         parent = parent->parentWidget())
        visible &= QRect(parent->mapTo(parent->window(), QPoint(0, 0)), parent->size());
    return visible;
}

// The fields, buttons and labels of a column of controls that its viewport cuts at the side: the
// column scrolls up and down only, so a cut one is never seen whole.
inline QStringList controlsCutProblems(const QScrollArea& column) {
    QStringList problems;
    if (!column.isVisible() || !column.widget()) return problems;
    const QWidget* viewport = column.viewport();
    // Squeezed to its least width, as a narrow window or a wide table beside it does, the
    // column still holds the controls' least width beside its scroll bar.
    const int needed = column.widget()->minimumSizeHint().width() +
                       column.style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    if (column.minimumWidth() < needed)
        problems << QStringLiteral("%1 may be squeezed to %2 px, its controls need %3")
                        .arg(column.objectName())
                        .arg(column.minimumWidth())
                        .arg(needed);
    for (const QWidget* control : column.widget()->findChildren<QWidget*>()) {
        if (!control->isVisible() || control->width() <= 0) continue;
        if (!qobject_cast<const QLineEdit*>(control) &&
            !qobject_cast<const QAbstractSpinBox*>(control) &&
            !qobject_cast<const QComboBox*>(control) &&
            !qobject_cast<const QAbstractButton*>(control) &&
            !qobject_cast<const QLabel*>(control) && !qobject_cast<const QListWidget*>(control))
            continue;
        // A combo box that sizes itself to its items shows the widest one whole (one set to
        // shrink to a few characters may elide, with its text in the popup).
        if (const auto* combo = qobject_cast<const QComboBox*>(control);
            combo &&
            combo->sizeAdjustPolicy() != QComboBox::AdjustToMinimumContentsLengthWithIcon &&
            combo->width() < combo->sizeHint().width())
            problems << QStringLiteral("%1: QComboBox '%2' is %3 px wide, its items need %4")
                            .arg(column.objectName(), combo->objectName())
                            .arg(combo->width())
                            .arg(combo->sizeHint().width());
        const QRect at(control->mapTo(viewport, QPoint(0, 0)), control->size());
        if (at.left() < 0 || at.right() >= viewport->width())
            problems << QStringLiteral("%1: %2 '%3' spans x %4 to %5 of its %6 px wide column")
                            .arg(column.objectName(),
                                 QString::fromLatin1(control->metaObject()->className()),
                                 control->objectName())
                            .arg(at.left())
                            .arg(at.right())
                            .arg(viewport->width());
    }
    return problems;
}

inline QStringList labelProblems(QWidget& window) {
    QStringList problems;
    std::vector<const QLabel*> shown;
    for (const QLabel* label : window.findChildren<QLabel*>()) {
        if (!label->isVisible() || label->text().isEmpty()) continue;
        if (visibleRectInWindow(*label).isEmpty()) continue;
        const QString name =
            label->objectName().isEmpty() ? label->text().left(40) : label->objectName();
        if (!labelTextFits(*label))
            problems << QStringLiteral("label '%1' (%2 px wide, %3 high) is too small for its text")
                            .arg(name)
                            .arg(label->width())
                            .arg(label->height());
        shown.push_back(label);
    }
    for (std::size_t a = 0; a < shown.size(); ++a)
        for (std::size_t b = a + 1; b < shown.size(); ++b) {
            if (shown[a]->isAncestorOf(shown[b]) || shown[b]->isAncestorOf(shown[a])) continue;
            const QRect overlap = visibleRectInWindow(*shown[a]) & visibleRectInWindow(*shown[b]);
            if (overlap.width() > 1 && overlap.height() > 1)
                problems << QStringLiteral("labels '%1' and '%2' overlap")
                                .arg(shown[a]->text().left(40), shown[b]->text().left(40));
        }
    return problems;
}

// Buttons a person must always reach: wholly inside every scroll area above them.
inline QStringList buttonProblems(QWidget& window, const QStringList& objectNames) {
    QStringList problems;
    for (const QString& objectName : objectNames) {
        const auto* button = window.findChild<QWidget*>(objectName);
        if (!button) {
            problems << QStringLiteral("button '%1' is missing").arg(objectName);
            continue;
        }
        const QRect visible = visibleRectInWindow(*button);
        if (!button->isVisible() || visible.size() != button->size())
            problems << QStringLiteral("button '%1' is cut: %2x%3 of %4x%5 in sight")
                            .arg(objectName)
                            .arg(visible.width())
                            .arg(visible.height())
                            .arg(button->width())
                            .arg(button->height());
    }
    return problems;
}

}  // namespace fusescope::testing
