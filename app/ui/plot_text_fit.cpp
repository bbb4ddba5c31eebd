#include "ui/plot_text_fit.h"

#include <QEvent>
#include <QHash>
#include <QHelpEvent>
#include <QPointer>
#include <QSet>
#include <QToolTip>
#include <algorithm>
#include <optional>

Q_DECLARE_METATYPE(QCPRange)

namespace fusescope {
namespace {

// Text tick names before the fitter blanked some of them, with the ticker they belong to: a
// chart that sets a new ticker (another file, another run) must never get the old names back.
struct ThinnedNames {
    QWeakPointer<QCPAxisTicker> ticker;
    QMap<double, QString> names;
};

}  // namespace
}  // namespace fusescope

Q_DECLARE_METATYPE(fusescope::ThinnedNames)

namespace fusescope {
namespace {

const char* const kFullText = "fusescopeFullText";
const char* const kOwnMargins = "fusescopeOwnMargins";
const char* const kFittedMargins = "fusescopeFittedMargins";
// A value axis stretched to make room for text: the range its owner (or a zoom) set, and the
// stretched one, so that each replot stretches from the owner's range and not from its own.
const char* const kOwnRange = "fusescopeOwnRange";
const char* const kStretchedRange = "fusescopeStretchedRange";
// Tick labels the fitter turned off for want of room (it turns them on again to try anew).
const char* const kTickLabelsHidden = "fusescopeTickLabelsHidden";
// A text item's coordinates as its owner set them, and as the fitter left them.
const char* const kOwnCoords = "fusescopeOwnCoords";
const char* const kPlacedCoords = "fusescopePlacedCoords";
// Text tick names thinned for want of room (a ThinnedNames).
const char* const kThinnedNames = "fusescopeThinnedTickNames";

// Greedy lines of words that fit `width`; a single word wider than that stays whole.
QStringList wrapWords(const QString& text, const QFontMetricsF& metrics, double width) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString joined = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (metrics.horizontalAdvance(joined) <= width || line.isEmpty()) {
            line = joined;
            continue;
        }
        lines << line;
        line = word;
    }
    if (!line.isEmpty()) lines << line;
    return lines;
}

// Greedy lines of " · "-separated parts that fit `width`; a part wider than the line wraps at
// its spaces, and what is still too wide is elided.
QString wrapAtSeparators(const QString& text, const QFontMetricsF& metrics, double width,
                         int maxLines) {
    const QString separator = QStringLiteral(" · ");
    QStringList lines;
    QString line;
    for (const QString& part : text.split(QLatin1Char('\n')).join(separator).split(separator)) {
        const QString joined = line.isEmpty() ? part : line + separator + part;
        if (metrics.horizontalAdvance(joined) <= width) {
            line = joined;
            continue;
        }
        if (!line.isEmpty()) lines << line;
        line = part;
        if (metrics.horizontalAdvance(part) > width) {
            const QStringList words = wrapWords(part, metrics, width);
            lines << words.mid(0, words.size() - 1);
            line = words.isEmpty() ? QString() : words.last();
        }
    }
    if (!line.isEmpty()) lines << line;
    if (lines.size() > maxLines) {
        QStringList kept = lines.mid(0, maxLines);
        kept.last() = kept.last() + separator + lines.mid(maxLines).join(separator);
        lines = kept;
    }
    for (QString& each : lines) each = metrics.elidedText(each, Qt::ElideRight, width);
    return lines.join(QLatin1Char('\n'));
}

// `text` elided to `width`; a unit in parentheses at its end ("bytes moved (GB)") stays whole
// where it fits: "bytes mo… (GB)" says what the numbers are, "bytes move…" does not.
QString elideKeepingUnit(const QString& text, const QFontMetricsF& metrics, double width) {
    if (metrics.horizontalAdvance(text) <= width) return text;
    const qsizetype open = text.lastIndexOf(QStringLiteral(" ("));
    if (!text.endsWith(QLatin1Char(')')) || open <= 0)
        return metrics.elidedText(text, Qt::ElideRight, width);
    const QString unit = text.mid(open);
    const double room = width - metrics.horizontalAdvance(unit);
    const QString name = metrics.elidedText(text.left(open), Qt::ElideRight, room);
    if (room > 0 && name.size() > 1) return name + unit;
    // Nothing of the name left: the unit alone, which still says what the numbers are, where it
    // fits ("(GB, log)" rather than "bytes (G…"); else the plain elision.
    const QString unitAlone = unit.trimmed();
    if (metrics.horizontalAdvance(unitAlone) <= width) return unitAlone;
    return metrics.elidedText(text, Qt::ElideRight, width);
}

// A plottable's legend entry whose name is elided to the room the fitter gives it (the full name
// stays the plottable's, and shows in the plot's tooltip).
class FittedLegendItem : public QCPPlottableLegendItem {
  public:
    FittedLegendItem(QCPLegend* legend, QCPAbstractPlottable* plottable)
        : QCPPlottableLegendItem(legend, plottable) {}

    // Pixels the name may take; below zero: all it needs.
    void setTextRoom(int pixels) { textRoom_ = pixels; }
    QString shownName() const {
        const QString full = mPlottable ? mPlottable->name() : QString();
        if (textRoom_ < 0) return full;
        return QFontMetricsF(getFont()).elidedText(full, Qt::ElideRight, textRoom_);
    }
    bool elided() const { return mPlottable && shownName() != mPlottable->name(); }

  protected:
    // Drawn and measured by the plain entry, with the plottable named by the shown name for
    // that while (the entry reads the name from the plottable).
    void draw(QCPPainter* painter) override {
        if (!mPlottable) return;
        const ShownName shown(mPlottable, shownName());
        QCPPlottableLegendItem::draw(painter);
    }

    QSize minimumOuterSizeHint() const override {
        if (!mPlottable) return {};
        const ShownName shown(mPlottable, shownName());
        return QCPPlottableLegendItem::minimumOuterSizeHint();
    }

  private:
    class ShownName {
      public:
        ShownName(QCPAbstractPlottable* plottable, const QString& shown)
            : plottable_(plottable), full_(plottable->name()) {
            plottable_->setName(shown);
        }
        ~ShownName() { plottable_->setName(full_); }
        ShownName(const ShownName&) = delete;
        ShownName& operator=(const ShownName&) = delete;

      private:
        QCPAbstractPlottable* plottable_;
        QString full_;
    };

    int textRoom_ = -1;
};

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
    // The text as its owner set it: remembered the first time, and again whenever the owner
    // sets a text that is not the fitted one.
    static QString ownText(QObject* holder, const QString& shown) {
        const QString fitted = holder->property("fusescopeFitted").toString();
        if (shown != fitted || holder->property(kFullText).isNull())
            holder->setProperty(kFullText, shown);
        return holder->property(kFullText).toString();
    }

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
                const QString fitted = wrapAtSeparators(full, QFontMetricsF(text->font()), width,
                                                        title ? 2 : secondaryLines);
                title = false;
                text->setProperty("fusescopeFitted", fitted);
                text->setText(fitted);
            } else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
                legends << legend;
            }
        }
        for (QCPLegend* legend : legends) fitLegend(legend, width);
        // Long text items (badges, notes) wrap to most of the plot's width.
        for (int i = 0; i < plot_->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot_->item(i))) {
                const QString full = ownText(text, text->text());
                const QFontMetricsF metrics(text->font());
                QString fitted = full;
                if (metrics.size(0, full).width() > width * 0.6)
                    fitted = wrapAtSeparators(full, metrics, width * 0.6, 6);
                text->setProperty("fusescopeFitted", fitted);
                if (fitted != text->text()) text->setText(fitted);
            }
        for (QCPAxisRect* rect : plot_->axisRects())
            for (QCPAxis* axis : rect->axes()) fitAxis(axis);
    }

    static void fitLegend(QCPLegend* legend, double width) {
        if (legend->itemCount() == 0 || legend->fillOrder() != QCPLegend::foColumnsFirst) return;
        // Names longer than the plot is wide are elided: each entry in place of the plain one.
        const int textRoom = static_cast<int>(width) - legend->margins().left() -
                             legend->margins().right() - legend->iconSize().width() -
                             legend->iconTextPadding();
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem* item = legend->item(i);
            if (!item) continue;
            auto* fitted = dynamic_cast<FittedLegendItem*>(item);
            if (!fitted && item->metaObject() == &QCPPlottableLegendItem::staticMetaObject) {
                int row = 0;
                int column = 0;
                legend->indexToRowCol(i, row, column);
                QCPAbstractPlottable* plottable =
                    static_cast<QCPPlottableLegendItem*>(item)->plottable();
                fitted = new FittedLegendItem(legend, plottable);
                fitted->setLayer(item->layer());
                fitted->setFont(item->font());
                fitted->setTextColor(item->textColor());
                fitted->setSelectable(item->selectable());
                legend->take(item);
                delete item;
                legend->addElement(row, column, fitted);
            }
            if (fitted)
                fitted->setTextRoom(
                    std::max(textRoom - fitted->margins().left() - fitted->margins().right(), 0));
        }
        // Columns of the widest item: a grid that never runs past the plot's sides.
        int widest = 1;
        int items = 0;
        for (int i = 0; i < legend->itemCount(); ++i)
            // A wrapped legend's grid has empty cells: item() is null there.
            if (QCPAbstractLegendItem* item = legend->item(i)) {
                widest = std::max(widest, item->minimumOuterSizeHint().width());
                ++items;
            }
        const int spacing = legend->columnSpacing();
        const int columns = std::clamp(static_cast<int>((width + spacing) / (widest + spacing)), 1,
                                       std::max(items, 1));
        if (legend->wrap() != columns) {
            legend->setWrap(columns);
            legend->setFillOrder(QCPLegend::foColumnsFirst, true);
        }
    }

    // `standNames`: text tick names stand on end whether or not they would fit lying down.
    static void fitAxis(QCPAxis* axis, bool standNames = false) {
        if (!axis->visible()) return;
        if (axis->property(kTickLabelsHidden).toBool()) {
            axis->setTickLabels(true);
            axis->setProperty(kTickLabelsHidden, QVariant());
        }
        const QRect rect = axis->axisRect()->rect();
        const bool horizontal = axis->orientation() == Qt::Horizontal;
        const double length = horizontal ? rect.width() : rect.height();
        if (length <= 0) return;
        // The label: elided to the axis's length.
        const QString full = ownText(axis, axis->label());
        const QString label = elideKeepingUnit(full, QFontMetricsF(axis->labelFont()), length);
        axis->setProperty("fusescopeFitted", label);
        if (label != axis->label()) axis->setLabel(label);
        QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
        const QFontMetricsF metrics(axis->tickLabelFont());
        if (!ticker) return;
        if (auto names = ticker.dynamicCast<QCPAxisTickerText>()) {
            // Names too long for their room stand on end instead of running into each other;
            // where even standing names are closer than a line, every other one is left blank
            // (the full names stay in the chart's tooltips).
            if (horizontal) {
                showAllNames(axis, *names);
                axis->setTickLabelRotation(!standNames && textTicksFit(axis, metrics) ? 0 : 90);
                // Every name counts for the margin, thinned or not: the margin must not follow
                // which names the thinning below leaves, or the layout would flip between two.
                // A standing name is as wide as its lines are high.
                double widest = 0.0;
                double standingWidth = 0.0;
                for (const QString& name : names->ticks()) {
                    const QSizeF size = metrics.size(0, name);
                    widest = std::max(widest, size.width());
                    standingWidth = std::max(standingWidth, size.height());
                }
                const bool standing = axis->tickLabelRotation() != 0;
                if (axis->tickLabels()) reserveEndMargin(axis, standing ? standingWidth : widest);
                // One pixel more than the least gap between names read side by side, so that
                // rounding never decides.
                if (standing) thinNames(axis, *names, standingWidth + 4);
            }
            return;
        }
        // Numeric ticks: room for each label and as much again between them.
        if (horizontal && axis->tickLabels()) {
            double widest = 0.0;
            for (const QString& each : axis->tickVectorLabels())
                widest = std::max(widest, metrics.horizontalAdvance(each));
            reserveEndMargin(axis, widest);
        }
        double extent = metrics.height();
        if (horizontal) {
            extent = metrics.horizontalAdvance(QStringLiteral("0.0000"));
            for (const QString& each : axis->tickVectorLabels())
                extent = std::max(extent, metrics.horizontalAdvance(each));
        }
        // A log axis rounds its step up to whole powers: asking for one tick can still give two.
        const int fewest = ticker.dynamicCast<QCPAxisTickerLog>() ? 1 : 2;
        const int wanted = std::clamp(static_cast<int>(length / (extent * 2.0)), fewest, 8);
        if (ticker->tickCount() != wanted) ticker->setTickCount(wanted);
        // Readable steps (1, 2, 5) may give twice the ticks asked for: on a short axis they
        // would collide, so there the count wins.
        ticker->setTickStepStrategy(length < 160 ? QCPAxisTicker::tssMeetTickCount
                                                 : QCPAxisTicker::tssReadability);
    }

    // The last tick label of a horizontal axis is centred on the axis's end: the rect's right
    // margin leaves it half its width (`widest`: the widest label along the axis).
    static void reserveEndMargin(QCPAxis* axis, double widest) {
        // From the owner's own least margins, never from the last fit's: the margin follows
        // the labels of this layout alone.
        QCPAxisRect* area = axis->axisRect();
        if (area->property(kOwnMargins).isNull() ||
            area->minimumMargins() != area->property(kFittedMargins).value<QMargins>())
            area->setProperty(kOwnMargins, QVariant::fromValue(area->minimumMargins()));
        QMargins least = area->property(kOwnMargins).value<QMargins>();
        least.setRight(std::max(least.right(), static_cast<int>(widest / 2 + 4)));
        area->setProperty(kFittedMargins, QVariant::fromValue(least));
        if (least != area->minimumMargins()) area->setMinimumMargins(least);
    }

    // The names as the chart set them, remembered the first time they are thinned, given back
    // only to the ticker they were taken from.
    static void showAllNames(QCPAxis* axis, QCPAxisTickerText& names) {
        const QVariant kept = axis->property(kThinnedNames);
        if (!kept.isValid()) return;
        axis->setProperty(kThinnedNames, QVariant());
        const ThinnedNames thinned = kept.value<ThinnedNames>();
        if (thinned.ticker.toStrongRef().get() == &names) names.setTicks(thinned.names);
    }

    static void thinNames(QCPAxis* axis, QCPAxisTickerText& names, double least) {
        const QMap<double, QString> ticks = names.ticks();
        QMap<double, QString> thinned;
        double lastPixel = -1e9;
        bool dropped = false;
        for (auto it = ticks.begin(); it != ticks.end(); ++it) {
            const double pixel = axis->coordToPixel(it.key());
            const bool room = std::abs(pixel - lastPixel) >= least;
            thinned.insert(it.key(), room ? it.value() : QString());
            if (room) lastPixel = pixel;
            dropped = dropped || !room;
        }
        if (!dropped) return;
        axis->setProperty(kThinnedNames, QVariant::fromValue(ThinnedNames{axis->ticker(), ticks}));
        names.setTicks(thinned);
    }

    static bool textTicksFit(QCPAxis* axis, const QFontMetricsF& metrics) {
        const QVector<double>& positions = axis->tickVector();
        const QVector<QString>& labels = axis->tickVectorLabels();
        const QRect rect = axis->axisRect()->rect();
        double previousRight = rect.left() - 6.0;
        for (int i = 0; i < positions.size() && i < labels.size(); ++i) {
            if (!axis->range().contains(positions[i])) continue;
            const double half = metrics.horizontalAdvance(labels[i]) / 2 + 3.0;
            const double at = axis->coordToPixel(positions[i]);
            if (at - half < previousRight || at + half > rect.right() + 6.0) return false;
            previousRight = at + half;
        }
        return true;
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
        constexpr int kStretches = 3;
        // Text never squeezes the data below half the plot: past that it is hidden instead.
        constexpr double kMostStretch = 2.0;
        std::optional<double> firstSpan;
        Placement placement;
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
            settleAxes();
            placement = placeTextItems(texts);
            if (placement.lacking <= 0.5 || attempt == kStretches) break;
            QCPAxisRect* area = plot_->axisRect();
            if (!area) break;
            QCPAxis* value = area->axis(QCPAxis::atLeft);
            const double height = area->rect().height();
            const double lacking = placement.lacking;
            if (!value || height <= lacking + 8.0 || value->scaleType() != QCPAxis::stLinear) break;
            const QCPRange range = value->range();
            if (!firstSpan) firstSpan = range.size();
            const double span = range.size() * height / (height - lacking - 4.0);
            if (span > *firstSpan * kMostStretch) break;
            value->setRange(range.lower, range.lower + span);
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

    // The ticks were made for the layout before this one (and before any stretch of a value
    // axis): they are made again for the axes as they are now. New ticks may need other margins,
    // and other margins other ticks, so the round is repeated until the axis rects keep their
    // size; last, ticks whose labels would still touch are made fewer. What this leaves is what
    // is drawn: no fit runs between it and the drawing.
    //
    // Every settling starts from the same state (names lying down and all shown, default tick
    // counts, the owner's margins), never from what the last replot left: the layout is then a
    // function of the plot's size and content alone, and a second replot draws what the first
    // did. Started from the last layout, the rounds could end in another of two layouts that
    // both hold.
    void settleAxes() {
        constexpr int kRounds = 8;
        for (QCPAxisRect* rect : plot_->axisRects()) {
            for (QCPAxis* axis : rect->axes()) startAfresh(axis);
            rect->update(QCPLayoutElement::upPreparation);
        }
        plot_->plotLayout()->update(QCPLayoutElement::upMargins);
        plot_->plotLayout()->update(QCPLayoutElement::upLayout);
        // Within one settling, ticks only become fewer and names only stand up: fewer ticks
        // give narrower margins and a longer axis, which would ask for more ticks again, and
        // the rounds would flip between two layouts.
        QHash<QCPAxis*, int> fewest;
        QSet<QCPAxis*> standing;
        for (int round = 0; round < kRounds; ++round) {
            QList<QRect> before;
            for (QCPAxisRect* rect : plot_->axisRects()) {
                before << rect->rect();
                for (QCPAxis* axis : rect->axes()) {
                    fitAxis(axis, standing.contains(axis));
                    QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
                    if (ticker && fewest.contains(axis) && ticker->tickCount() > fewest[axis])
                        ticker->setTickCount(fewest[axis]);
                }
                rect->update(QCPLayoutElement::upPreparation);
                for (QCPAxis* axis : rect->axes()) {
                    thinCollidingTicks(axis);
                    if (axis->ticker()) fewest[axis] = axis->ticker()->tickCount();
                    if (axis->tickLabelRotation() != 0) standing.insert(axis);
                }
            }
            plot_->plotLayout()->update(QCPLayoutElement::upMargins);
            plot_->plotLayout()->update(QCPLayoutElement::upLayout);
            QList<QRect> after;
            for (QCPAxisRect* rect : plot_->axisRects()) after << rect->rect();
            if (after == before) return;
        }
        // Still moving after every round (margins that flip between two widths): the ticks are
        // made once more for the last layout, which the margins then keep.
        for (QCPAxisRect* rect : plot_->axisRects()) {
            rect->update(QCPLayoutElement::upPreparation);
            for (QCPAxis* axis : rect->axes()) thinCollidingTicks(axis);
        }
    }

    // What the fitter changed on an axis, undone: every settling starts from here.
    static void startAfresh(QCPAxis* axis) {
        if (!axis->visible()) return;
        if (axis->property(kTickLabelsHidden).toBool()) {
            axis->setTickLabels(true);
            axis->setProperty(kTickLabelsHidden, QVariant());
        }
        QCPAxisRect* area = axis->axisRect();
        const QVariant own = area->property(kOwnMargins);
        if (own.isValid() &&
            area->minimumMargins() == area->property(kFittedMargins).value<QMargins>())
            area->setMinimumMargins(own.value<QMargins>());
        QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
        if (!ticker) return;
        if (auto names = ticker.dynamicCast<QCPAxisTickerText>()) {
            showAllNames(axis, *names);
            if (axis->orientation() == Qt::Horizontal) axis->setTickLabelRotation(0);
            return;
        }
        // QCPAxisTicker's own defaults.
        ticker->setTickCount(5);
        ticker->setTickStepStrategy(QCPAxisTicker::tssReadability);
    }

    // Numeric tick labels closer than their size (plus a gap) are made fewer, down to one step
    // over the whole range; where even that collides, the axis shows no tick labels.
    static void thinCollidingTicks(QCPAxis* axis) {
        if (!axis->visible() || !axis->tickLabels()) return;
        QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
        if (!ticker || ticker.dynamicCast<QCPAxisTickerText>()) return;
        const QFontMetricsF metrics(axis->tickLabelFont());
        while (ticksCollide(axis, metrics)) {
            if (ticker->tickCount() > 1) {
                ticker->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
                ticker->setTickCount(ticker->tickCount() - 1);
                // Remakes the ticks of the rect's axes (setupTickVectors is not public).
                axis->axisRect()->update(QCPLayoutElement::upPreparation);
                continue;
            }
            axis->setTickLabels(false);
            axis->setProperty(kTickLabelsHidden, true);
            return;
        }
    }

    static bool ticksCollide(QCPAxis* axis, const QFontMetricsF& metrics) {
        // One more pixel than the layout check asks for, so that rounding never decides.
        constexpr double kGap = 4.0;
        const bool horizontal = axis->orientation() == Qt::Horizontal;
        const bool standing =
            horizontal && std::abs(std::abs(axis->tickLabelRotation()) - 90.0) < 1.0;
        const QVector<double>& positions = axis->tickVector();
        const QVector<QString>& labels = axis->tickVectorLabels();
        std::optional<double> previousEnd;
        QList<QPair<double, double>> spans;  // along the axis, in pixels
        for (int i = 0; i < positions.size() && i < labels.size(); ++i) {
            if (!axis->range().contains(positions[i]) || labels[i].isEmpty()) continue;
            const QSizeF size = metrics.size(0, labels[i]);
            const double extent = horizontal && !standing ? size.width() : size.height();
            const double at = axis->coordToPixel(positions[i]);
            spans << qMakePair(at - extent / 2, at + extent / 2);
        }
        std::sort(spans.begin(), spans.end());
        for (const auto& [start, end] : spans) {
            if (previousEnd && start < *previousEnd + kGap) return true;
            previousEnd = end;
        }
        return false;
    }

    // The bodies of bars (stacked ones from the bar below) and the extent of line items, in
    // the plot's pixels: text is kept off them.
    QList<QRectF> plotShapes() const {
        QList<QRectF> shapes;
        for (int i = 0; i < plot_->plottableCount(); ++i) {
            auto* bars = qobject_cast<QCPBars*>(plot_->plottable(i));
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
                shapes << (vertical
                               ? QRectF(QPointF(at - half, top.y()), QPointF(at + half, base.y()))
                               : QRectF(QPointF(top.x(), at - half), QPointF(base.x(), at + half)))
                              .normalized();
            }
        }
        for (int i = 0; i < plot_->itemCount(); ++i)
            if (auto* line = qobject_cast<QCPItemLine*>(plot_->item(i));
                line && line->realVisibility()) {
                const double halfPen = std::max(1.0, line->pen().widthF() / 2);
                shapes << QRectF(line->start->pixelPosition(), line->end->pixelPosition())
                              .normalized()
                              .adjusted(-halfPen, -halfPen, halfPen, halfPen);
            }
        return shapes;
    }

    // Places the items apart and inside their axis rect; returns how many pixels of room above
    // the data were missing (0 when every item is clear of the data and of each other).
    struct Placement {
        double lacking = 0.0;
        QList<QCPItemText*> unresolved;  // still on other text or on the data
    };
    Placement placeTextItems(const QList<QCPItemText*>& texts) {
        // Side by side, texts closer than this read as one: "scratchtwo_launch".
        constexpr double kGap = 4.0;
        QList<QPointF> points;
        QList<QRectF> shapes = plotShapes();
        for (int i = 0; i < plot_->plottableCount(); ++i) {
            QCPAbstractPlottable* plottable = plot_->plottable(i);
            if (auto* graph = qobject_cast<QCPGraph*>(plottable)) {
                // A drawn marker is a disk, not a point: text keeps off all of it.
                const QCPScatterStyle& marker = graph->scatterStyle();
                const double half = marker.isNone() ? 0.0 : marker.size() / 2 + 1.0;
                for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                    const QPointF at = graph->coordsToPixels(it->key, it->value);
                    points << at;
                    if (half > 0.0)
                        shapes << QRectF(at.x() - half, at.y() - half, 2 * half, 2 * half);
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
        for (QCPAxisRect* rect : plot_->axisRects())
            for (QCPLayoutElement* element : rect->insetLayout()->elements(false))
                if (auto* legend = qobject_cast<QCPLegend*>(element); legend && legend->visible())
                    placed << QRectF(legend->outerRect());
        for (QCPItemText* text : texts) {
            QRectF box = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())
                             .normalized();
            QCPAxisRect* area = text->clipAxisRect() ? text->clipAxisRect() : plot_->axisRect();
            const QRectF bounds = area ? QRectF(area->rect()) : QRectF(plot_->viewport());
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
            const QRectF drawnIn = text->clipToAxisRect() ? bounds : QRectF(plot_->viewport());
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

    QCustomPlot* plot_;
    QList<QPointer<QCPItemText>> hidden_;
};

}  // namespace

void fitPlotTextAlways(QCustomPlot* plot) {
    new PlotTextFitter(plot);
}

}  // namespace fusescope
