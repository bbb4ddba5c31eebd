#include "ui/text_fit/axis_fit.h"

#include <QHash>
#include <QSet>
#include <algorithm>
#include <optional>

#include "ui/charts/plot_axis_rects.h"
#include "ui/text_fit/owner_text.h"
#include "ui/text_fit/text_wrap.h"

namespace fusescope::text_fit {
namespace {

// Text tick names before the fitter blanked some of them, with the ticker they belong to: a
// chart that sets a new ticker (another file, another run) must never get the old names back.
struct ThinnedNames {
    QWeakPointer<QCPAxisTicker> ticker;
    QMap<double, QString> names;
};

}  // namespace
}  // namespace fusescope::text_fit

Q_DECLARE_METATYPE(fusescope::text_fit::ThinnedNames)

namespace fusescope::text_fit {
namespace {

const char* const kOwnMargins = "fusescopeOwnMargins";
const char* const kFittedMargins = "fusescopeFittedMargins";
// Tick labels the fitter turned off for want of room (it turns them on again to try anew).
const char* const kTickLabelsHidden = "fusescopeTickLabelsHidden";
// Text tick names thinned for want of room (a ThinnedNames).
const char* const kThinnedNames = "fusescopeThinnedTickNames";

// The last tick label of a horizontal axis is centred on the axis's end: the rect's right
// margin leaves it half its width (`widest`: the widest label along the axis).
void reserveEndMargin(QCPAxis* axis, double widest) {
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
void showAllNames(QCPAxis* axis, QCPAxisTickerText& names) {
    const QVariant kept = axis->property(kThinnedNames);
    if (!kept.isValid()) return;
    axis->setProperty(kThinnedNames, QVariant());
    const ThinnedNames thinned = kept.value<ThinnedNames>();
    if (thinned.ticker.toStrongRef().get() == &names) names.setTicks(thinned.names);
}

void thinNames(QCPAxis* axis, QCPAxisTickerText& names, double least) {
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

bool textTicksFit(QCPAxis* axis, const QFontMetricsF& metrics) {
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

// What the fitter changed on an axis, undone: every settling starts from here.
void startAfresh(QCPAxis* axis) {
    if (!axis->visible()) return;
    if (axis->property(kTickLabelsHidden).toBool()) {
        axis->setTickLabels(true);
        axis->setProperty(kTickLabelsHidden, QVariant());
    }
    // The label on one line, as its owner set it: a fitted one of two lines has another margin.
    if (const QString full = ownText(axis, axis->label()); axis->label() != full) {
        axis->setProperty("fusescopeFitted", full);
        axis->setLabel(full);
    }
    QCPAxisRect* area = axis->axisRect();
    const QVariant own = area->property(kOwnMargins);
    if (own.isValid() && area->minimumMargins() == area->property(kFittedMargins).value<QMargins>())
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

bool ticksCollide(QCPAxis* axis, const QFontMetricsF& metrics) {
    // One more pixel than the layout check asks for, so that rounding never decides.
    constexpr double kGap = 4.0;
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const bool standing = horizontal && std::abs(std::abs(axis->tickLabelRotation()) - 90.0) < 1.0;
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

// Numeric tick labels closer than their size (plus a gap) are made fewer, down to one step
// over the whole range; where even that collides, the axis shows no tick labels.
void thinCollidingTicks(QCPAxis* axis) {
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

}  // namespace

// `standNames`: text tick names stand on end whether or not they would fit lying down.
void fitAxis(QCPAxis* axis, bool standNames) {
    if (!axis->visible()) return;
    if (axis->property(kTickLabelsHidden).toBool()) {
        axis->setTickLabels(true);
        axis->setProperty(kTickLabelsHidden, QVariant());
    }
    const QRect rect = axis->axisRect()->rect();
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const double length = horizontal ? rect.width() : rect.height();
    if (length <= 0) return;
    // The label: a horizontal one takes a second line at its " · " parts (its height costs the
    // plot less than a vertical one's width would); one that would be elided puts its unit on a
    // second line instead, where both fit (a vertical one then costs a line's width, not its
    // meaning); what still does not fit is elided.
    const QString full = ownText(axis, axis->label());
    const QFontMetricsF labelMetrics(axis->labelFont());
    const QString label = horizontal && full.contains(QStringLiteral(" · "))
                              ? wrapAtSeparators(full, labelMetrics, length, 2)
                              : breakBeforeUnit(full, labelMetrics, length);
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
        } else {
            // Names stacked closer than a line (a log colour bar's 1, 2 and 5 of each decade on
            // a short bar) would run into each other: those too close to the last one kept are
            // left blank.
            showAllNames(axis, *names);
            thinNames(axis, *names, metrics.height() + 4);
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
void settleAxes(QCustomPlot* plot) {
    constexpr int kRounds = 8;
    for (QCPAxisRect* rect : everyAxisRect(*plot)) {
        for (QCPAxis* axis : rect->axes()) startAfresh(axis);
        rect->update(QCPLayoutElement::upPreparation);
    }
    plot->plotLayout()->update(QCPLayoutElement::upMargins);
    plot->plotLayout()->update(QCPLayoutElement::upLayout);
    // Within one settling, ticks only become fewer and names only stand up: fewer ticks
    // give narrower margins and a longer axis, which would ask for more ticks again, and
    // the rounds would flip between two layouts.
    QHash<QCPAxis*, int> fewest;
    QSet<QCPAxis*> standing;
    for (int round = 0; round < kRounds; ++round) {
        QList<QRect> before;
        for (QCPAxisRect* rect : everyAxisRect(*plot)) {
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
        plot->plotLayout()->update(QCPLayoutElement::upMargins);
        plot->plotLayout()->update(QCPLayoutElement::upLayout);
        QList<QRect> after;
        for (QCPAxisRect* rect : everyAxisRect(*plot)) after << rect->rect();
        if (after == before) return;
    }
    // Still moving after every round (margins that flip between two widths): the ticks are
    // made once more for the last layout, which the margins then keep.
    for (QCPAxisRect* rect : everyAxisRect(*plot)) {
        rect->update(QCPLayoutElement::upPreparation);
        for (QCPAxis* axis : rect->axes()) thinCollidingTicks(axis);
    }
}

}  // namespace fusescope::text_fit
