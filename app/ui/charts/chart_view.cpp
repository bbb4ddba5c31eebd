#include "ui/charts/chart_view.h"

#include <QEvent>
#include <QTimer>
#include <algorithm>
#include <cmath>

#include "model/captions.h"
#include "ui/charts/legend_row.h"
#include "ui/export/chart_export.h"

namespace fusescope {
namespace {

// Decades no higher than the top the chart chose for its data: room the text fitter adds above
// it, for the names over the bars, carries no tick (no "10^8 GB" over a 15 GB bar).
class CeilingLogTicker : public QCPAxisTickerLog {
  public:
    explicit CeilingLogTicker(double ceiling) : ceiling_(ceiling) {}

  protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        QVector<double> ticks = QCPAxisTickerLog::createTickVector(tickStep, range);
        ticks.erase(std::remove_if(ticks.begin(), ticks.end(),
                                   [this](double tick) { return tick > ceiling_ * 1.0001; }),
                    ticks.end());
        return ticks;
    }

  private:
    double ceiling_;
};

}  // namespace

ChartView::ChartView(QString title, QString fileStem, QWidget* parent)
    : ChartBase(title, parent), title_(std::move(title)), fileStem_(std::move(fileStem)) {
    setObjectName(fileStem_);
    setProperty("fusescopeExportTitle", title_);  // offered by File > Export and --export-charts
    // Three side by side beside the run panel on a 1024-pixel-wide screen.
    setMinimumSize(190, 160);
    placeTitleRows();
    plotLayout()->setRowSpacing(0);
    // The legend sits in its own row under the axes, so it never covers bars or labels.
    placeLegendInRow(this, legend, 3);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    footnoteElement_ = new QCPTextElement(this, QString(), font());
    plotLayout()->addElement(4, 0, footnoteElement_);
    plotLayout()->setRowStretchFactor(4, 0.001);
    setFootnote(QString());
    applyPalette();
    scheduleRebuild();
}

void ChartView::setRecording(const model::Recording& recording) {
    recording_ = recording;
    scheduleRebuild();
}

void ChartView::scheduleRebuild() {
    if (rebuildPending_) return;
    rebuildPending_ = true;
    QTimer::singleShot(0, this, [this] {
        if (rebuildPending_) rebuildNow();
    });
}

void ChartView::rebuildNow() {
    rebuildPending_ = false;
    setProperty("fusescopeGeneration", property("fusescopeGeneration").toInt() + 1);
    resetPlot();
    // Before any run there is no device to name: say what will be shown.
    captionElement()->setText(
        recording_.runs.empty()
            ? tr("The device, the problem and where the numbers come from appear here after a run")
            : model::captionFor(recording_));
    setFootnote(QString());
    // What hover tooltips name as the numbers' source.
    setProperty("fusescopeDataSource",
                recording_.runs.empty()
                    ? QString()
                    : model::dataSourceBadge(recording_, recording_.runs.front()));
    if (recording_.runs.empty())
        setEmptyMessage(tr("No results yet: run a pipeline or open a recording."));
    else
        rebuild();
    applyPalette();
    replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::setValueScale(ValueScale scale) {
    if (scale == valueScale_) return;
    valueScale_ = scale;
    scheduleRebuild();
}

double ChartView::setValueAxis(const QString& label, double smallest, double largest,
                               double headroom) {
    if (!useLogScale(valueScale_, smallest, largest)) {
        yAxis->setScaleType(QCPAxis::stLinear);
        yAxis->setLabel(label);
        yAxis->setRange(0, largest > 0 ? largest * headroom : 1.0);
        return 0.0;
    }
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    const double top = largest * std::pow(headroom, 6);
    yAxis->setTicker(QSharedPointer<CeilingLogTicker>::create(top));
    // "time (ms)" becomes "time (ms, log)": the unit stays where it was, and short.
    yAxis->setLabel(label.endsWith(QLatin1Char(')')) ? label.chopped(1) + tr(", log)")
                                                     : tr("%1 (log)").arg(label));
    // The same room for labels as on a linear axis takes more of a log axis's range.
    const double bottom = smallest / 2;
    yAxis->setRange(bottom, top);
    return bottom;
}

void ChartView::resetPlot() {
    clearPlottables();
    clearItems();
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    yAxis->setScaleType(QCPAxis::stLinear);
    xAxis->setLabel(QString());
    yAxis->setLabel(QString());
    xAxis->setRange(0, 1);
    yAxis->setRange(0, 1);
    xAxis->setVisible(true);
    yAxis->setVisible(true);
    yAxis->grid()->setVisible(true);
    legend->setVisible(true);
}

void ChartView::setFootnote(const QString& text, const QString& onScreenOnly) {
    footnoteElement_->setText(onScreenOnly.isEmpty() ? text
                                                     : text + QLatin1Char(' ') + onScreenOnly);
    setExportText(footnoteElement_, text);
    // An empty row takes no height.
    footnoteElement_->setMargins(text.isEmpty() ? QMargins() : QMargins(2, 2, 2, 2));
    footnoteElement_->setVisible(!text.isEmpty());
}

void ChartView::setEmptyMessage(const QString& message) {
    // The message alone: empty axes with made-up ticks would say nothing.
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setVisible(false);
        axis->grid()->setVisible(false);
    }
    auto* text = new QCPItemText(this);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.5, 0.5);
    text->setText(message);
    text->setColor(textColor());
}

void ChartView::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        scheduleRebuild();
}

QColor ChartView::readColor() const {
    return seriesColor(0);
}
QColor ChartView::writeColor() const {
    return seriesColor(1);
}
QColor ChartView::accentColor() const {
    return seriesColor(2);
}

void ChartView::applyPalette() {
    paintBackgroundAndAxes({axisRect()});
    paintDottedGrids({axisRect()});
    xAxis->grid()->setVisible(false);
    paintLegend(legend, 220);
    paintTitles({footnoteElement_});
}

ByteUnit byteUnitFor(double largest) {
    if (largest >= 1e9) return {1e9, QStringLiteral("GB")};
    if (largest >= 1e6) return {1e6, QStringLiteral("MB")};
    if (largest >= 1e3) return {1e3, QStringLiteral("kB")};
    return {1.0, QStringLiteral("bytes")};
}

}  // namespace fusescope
