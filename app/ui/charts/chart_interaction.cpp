#include "ui/charts/chart_interaction.h"

#include "ui/charts/plot_axis_rects.h"

#include <QEvent>
#include <QList>
#include <QMouseEvent>
#include <QPair>
#include <QPointer>
#include <QToolTip>

namespace fusescope {
namespace {

// Six significant digits: what the data holds, not what the tick labels round it to.
QString exact(double value) {
    return QLocale().toString(value, 'g', 6);
}

QString dataSourceOf(QCustomPlot* plot) {
    const QString source = plot->property("fusescopeDataSource").toString();
    if (!source.isEmpty()) return source;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i));
            text && text->objectName() == QLatin1String("badge") && text->visible())
            return text->text();
    return QObject::tr("not stated");
}

QString axisName(const QCPAxis* axis) {
    const QString full = axis->property("fusescopeFullText").toString();
    const QString label = full.isEmpty() ? axis->label() : full;
    return label.isEmpty()
               ? (axis->orientation() == Qt::Horizontal ? QStringLiteral("x") : QStringLiteral("y"))
               : label;
}

// A key on a text-ticked axis is a category: its name says more than its position.
QString keyText(QCPAxis* axis, double key) {
    if (auto text = axis->ticker().dynamicCast<QCPAxisTickerText>()) {
        const auto it = text->ticks().constFind(key);
        if (it != text->ticks().constEnd()) return QString(*it).replace(QLatin1Char('\n'), " · ");
    }
    return exact(key);
}

class ChartInteraction : public QObject {
  public:
    explicit ChartInteraction(QCustomPlot* plot) : QObject(plot), plot_(plot) {
        plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
        plot->setMouseTracking(true);
        plot->installEventFilter(this);
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched != plot_) return false;
        switch (event->type()) {
            case QEvent::MouseButtonPress:
            case QEvent::Wheel:
                followOwner();
                remember();
                break;
            case QEvent::MouseButtonDblClick:
                reset();
                return true;
            case QEvent::MouseMove:
                showTooltip(static_cast<QMouseEvent*>(event));
                break;
            case QEvent::Leave:
                hideTooltip();
                break;
            default:
                break;
        }
        return false;
    }

  private:
    void followOwner() {
        const bool seeks = plot_->property("fusescopeClickSeeks").toBool();
        plot_->setInteraction(QCP::iRangeDrag, !seeks);
        for (QCPAxisRect* rect : plot_->axisRects()) {
            rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
            rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
            rect->setRangeDragAxes(rect->axes(QCPAxis::atBottom | QCPAxis::atLeft));
            rect->setRangeZoomAxes(rect->axes(QCPAxis::atBottom | QCPAxis::atLeft));
        }
    }

    // The ranges the chart chose, taken before the first zoom or pan since the last reset.
    void remember() {
        // A chart that built itself again since has new ranges of its own.
        const int generation = plot_->property("fusescopeGeneration").toInt();
        if (generation != savedGeneration_) saved_.clear();
        savedGeneration_ = generation;
        if (!saved_.isEmpty()) return;
        // A colour scale's bar zooms and pans too, on an axis outside the plot's layout.
        for (QCPAxisRect* rect : everyAxisRect(*plot_))
            for (QCPAxis* axis : rect->axes()) saved_.push_back({axis, axis->range()});
    }

    void reset() {
        if (plot_->property("fusescopeGeneration").toInt() == savedGeneration_)
            for (const auto& [axis, range] : saved_)
                if (axis) axis->setRange(range);
        saved_.clear();
        plot_->replot();
    }

    void showTooltip(QMouseEvent* event) {
        if (event->buttons() != Qt::NoButton) return;
        const QString text = chartPointTooltip(plot_, event->position());
        if (text.isEmpty()) {
            hideTooltip();
            return;
        }
        QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
        showing_ = true;
    }

    void hideTooltip() {
        if (!showing_) return;
        QToolTip::hideText();
        showing_ = false;
    }

    QCustomPlot* plot_;
    QList<QPair<QPointer<QCPAxis>, QCPRange>> saved_;
    int savedGeneration_ = 0;
    bool showing_ = false;
};

}  // namespace

QString chartPointTooltip(QCustomPlot* plot, const QPointF& at, double reach) {
    QCPAbstractPlottable* nearest = nullptr;
    int nearestIndex = -1;
    double nearestDistance = reach;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = plot->plottable(i);
        if (!plottable->realVisibility() || !plottable->interface1D()) continue;
        QVariant details;
        const double distance = plottable->selectTest(at, false, &details);
        if (distance < 0 || distance > nearestDistance) continue;
        const QCPDataSelection selection = details.value<QCPDataSelection>();
        if (selection.isEmpty()) continue;
        nearest = plottable;
        nearestIndex = selection.dataRange().begin();
        nearestDistance = distance;
    }
    if (!nearest) return {};
    QCPPlottableInterface1D* data = nearest->interface1D();
    if (nearestIndex < 0 || nearestIndex >= data->dataCount()) return {};
    const double key = data->dataMainKey(nearestIndex);
    const double value = data->dataMainValue(nearestIndex);
    QStringList lines;
    if (!nearest->name().isEmpty()) lines << nearest->name();
    lines << QStringLiteral("%1: %2").arg(axisName(nearest->keyAxis()),
                                          keyText(nearest->keyAxis(), key));
    lines << QStringLiteral("%1: %2").arg(axisName(nearest->valueAxis()), exact(value));
    const QStringList notes = nearest->property("fusescopeNotes").toStringList();
    if (nearestIndex < notes.size() && !notes[nearestIndex].isEmpty()) lines << notes[nearestIndex];
    lines << QObject::tr("source: %1").arg(dataSourceOf(plot));
    return lines.join(QLatin1Char('\n'));
}

void makeChartInteractive(QCustomPlot* plot) {
    new ChartInteraction(plot);
}

}  // namespace fusescope
