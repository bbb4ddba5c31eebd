#include "ui/charts/plot_text_fit.h"

#include <QEvent>
#include <QHash>
#include <QHelpEvent>
#include <QPointer>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <optional>

#include "ui/charts/plot_axis_rects.h"
#include "ui/text_fit/axis_fit.h"
#include "ui/text_fit/legend_fit.h"
#include "ui/text_fit/owner_text.h"
#include "ui/text_fit/text_item_placement.h"
#include "ui/text_fit/text_wrap.h"

Q_DECLARE_METATYPE(QCPRange)

namespace fusescope {
namespace {

using text_fit::FittedLegendItem;
using text_fit::kFullText;
using text_fit::ownText;

// A value axis stretched to make room for text: the range its owner (or a zoom) set, and the
// stretched one, so that each replot stretches from the owner's range and not from its own.
const char* const kOwnRange = "fusescopeOwnRange";
const char* const kStretchedRange = "fusescopeStretchedRange";
// A text item's coordinates as its owner set them, and as the fitter left them.
const char* const kOwnCoords = "fusescopeOwnCoords";
const char* const kPlacedCoords = "fusescopePlacedCoords";
// A caption that takes the lines it needs (keepCaptionWhole).
const char* const kKeepWhole = "fusescopeKeepWhole";
// The share of the plot's height such a caption may take: the data keeps the rest.
constexpr double kWholeCaptionShare = 1.0 / 3.0;

class PlotTextFitter : public QObject {
  public:
    explicit PlotTextFitter(QCustomPlot* plot) : QObject(plot), plot_(plot) {
        connect(plot, &QCustomPlot::beforeReplot, this, &PlotTextFitter::fitBeforeLayout);
        connect(plot, &QCustomPlot::afterLayout, this, &PlotTextFitter::spreadTextItems);
        plot->installEventFilter(this);
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched != plot_ || event->type() != QEvent::ToolTip) return false;
        const QPoint at = static_cast<QHelpEvent*>(event)->pos();
        for (QCPLayoutElement* element : plot_->plotLayout()->elements(true))
            if (auto* text = qobject_cast<QCPTextElement*>(element);
                text && text->outerRect().contains(at)) {
                const QString full = text->property(kFullText).toString();
                if (!full.isEmpty() && full != text->text()) {
                    QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), full, plot_);
                    return true;
                }
            } else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
                for (int i = 0; i < legend->itemCount(); ++i)
                    if (auto* item = dynamic_cast<FittedLegendItem*>(legend->item(i));
                        item && item->elided() && item->outerRect().contains(at)) {
                        QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(),
                                           item->plottable()->name(), plot_);
                        return true;
                    }
            }
        return false;
    }

  private:
    void fitBeforeLayout() {
        const double width = plot_->width() - 8.0;
        // The title keeps two lines; captions and notes give up lines on a short plot, so that
        // the axes keep room for the data (the full text stays in the tooltip).
        const int secondaryLines = plot_->height() >= 420 ? 3 : plot_->height() >= 300 ? 2 : 1;
        bool title = true;
        // Legends are fitted after the walk: fitting one replaces its entries, which the walk's
        // list holds too.
        QList<QCPLegend*> legends;
        for (QCPLayoutElement* element : plot_->plotLayout()->elements(true)) {
            if (auto* text = qobject_cast<QCPTextElement*>(element)) {
                const QString full = ownText(text, text->text());
                const QFontMetricsF metrics(text->font());
                int lines = title ? 2 : secondaryLines;
                if (!title && text->property(kKeepWhole).toBool())
                    lines = std::max(lines, static_cast<int>(plot_->height() * kWholeCaptionShare /
                                                             metrics.lineSpacing()));
                const QString fitted = text_fit::wrapAtSeparators(full, metrics, width, lines);
                title = false;
                text->setProperty("fusescopeFitted", fitted);
                text->setText(fitted);
            } else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
                legends << legend;
            }
        }
        for (QCPLegend* legend : legends) text_fit::fitLegend(legend, width);
        // Long text items (badges, notes) wrap to most of the plot's width.
        for (int i = 0; i < plot_->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot_->item(i))) {
                const QString full = ownText(text, text->text());
                const QFontMetricsF metrics(text->font());
                QString fitted = full;
                if (metrics.size(0, full).width() > width * 0.6)
                    fitted = text_fit::wrapAtSeparators(full, metrics, width * 0.6, 6);
                text->setProperty("fusescopeFitted", fitted);
                if (fitted != text->text()) text->setText(fitted);
            }
        for (QCPAxisRect* rect : everyAxisRect(*plot_))
            for (QCPAxis* axis : rect->axes()) text_fit::fitAxis(axis);
    }

    // Text items drawn where another already is are moved up (or down when there is no room
    // above) until they are clear; their own placement is remembered for the next replot. When
    // there is no room left above the data, the value axis is stretched so that the data sits
    // lower and the text stands clear of it.
    void spreadTextItems() {
        // What was hidden for want of room gets another chance at this size.
        for (const QPointer<QCPItemText>& text : hidden_)
            if (text) text->setVisible(true);
        hidden_.clear();
        QList<QCPItemText*> texts;
        for (int i = 0; i < plot_->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot_->item(i));
                text && text->visible() && !text->text().isEmpty())
                texts << text;
        // Each item's own place is kept on the item itself, so that it dies with the item (a new
        // item at a freed address starts afresh). Coordinates other than the ones the fitter
        // left are the owner's: the owner moved the item, or it was never placed.
        QHash<QCPItemText*, QPointF> own;
        for (QCPItemText* text : texts) {
            const QPointF now = text->position->coords();
            const QVariant placed = text->property(kPlacedCoords);
            if (text->property(kOwnCoords).isNull() || !placed.isValid() ||
                placed.toPointF() != now)
                text->setProperty(kOwnCoords, now);
            own.insert(text, text->property(kOwnCoords).toPointF());
        }
        constexpr int kStretches = 4;
        // Text never squeezes the data below two fifths of the plot: past that it is hidden
        // instead.
        constexpr double kMostStretch = 2.5;
        std::optional<double> firstSpan;
        text_fit::Placement placement;
        QCPAxis* stretched = plot_->axisRect() ? plot_->axisRect()->axis(QCPAxis::atLeft) : nullptr;
        if (stretched) {
            const QCPRange range = stretched->range();
            const QVariant ours = stretched->property(kStretchedRange);
            if (ours.isValid() && ours.value<QCPRange>() == range)
                stretched->setRange(stretched->property(kOwnRange).value<QCPRange>());
            else
                stretched->setProperty(kOwnRange, QVariant::fromValue(range));
            stretched->setProperty(kStretchedRange, QVariant());
        }
        for (int attempt = 0; attempt <= kStretches; ++attempt) {
            for (QCPItemText* text : texts) text->position->setCoords(own.value(text));
            // The axes first, as they will be drawn: the text is then placed on the final layout,
            // and nothing after the placement moves the axes or the data again.
            text_fit::settleAxes(plot_);
            placement = text_fit::placeTextItems(plot_, texts);
            if (placement.lacking <= 0.5 || attempt == kStretches) break;
            QCPAxisRect* area = plot_->axisRect();
            if (!area) break;
            QCPAxis* value = area->axis(QCPAxis::atLeft);
            const double height = area->rect().height();
            const double lacking = placement.lacking;
            if (!value || height <= lacking + 8.0) break;
            // A logarithmic axis stretches its decades: the same share of the height is freed.
            const bool logarithmic = value->scaleType() == QCPAxis::stLogarithmic;
            const QCPRange range = value->range();
            if (logarithmic && !(range.lower > 0.0)) break;
            const double size = logarithmic ? std::log(range.upper / range.lower) : range.size();
            if (!firstSpan) firstSpan = size;
            const double span = size * height / (height - lacking - 4.0);
            if (span > *firstSpan * kMostStretch) break;
            value->setRange(range.lower,
                            logarithmic ? range.lower * std::exp(span) : range.lower + span);
            if (value == stretched)
                stretched->setProperty(kStretchedRange, QVariant::fromValue(value->range()));
        }
        // Text with no clear place left is dropped rather than printed over other text or the
        // data; the owner's tooltips and tables still say it.
        for (QCPItemText* text : placement.unresolved) {
            text->setVisible(false);
            hidden_ << text;
        }
        for (QCPItemText* text : texts) text->setProperty(kPlacedCoords, text->position->coords());
    }

    QCustomPlot* plot_;
    QList<QPointer<QCPItemText>> hidden_;
};

}  // namespace

void fitPlotTextAlways(QCustomPlot* plot) {
    new PlotTextFitter(plot);
}

void keepCaptionWhole(QCPTextElement* caption) {
    caption->setProperty(kKeepWhole, true);
}

}  // namespace fusescope
