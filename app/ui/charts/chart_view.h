#pragma once
// A chart drawn from a recording. Subclasses build their plottables in rebuild(); the base class
// fills the caption (device, N, dtype, vector, data-source badge), follows the palette,
// and batches updates: setRecording() only schedules one queued rebuild and replot.
#include <QString>

#include "model/recording.h"
#include "ui/charts/chart_base.h"
#include "ui/charts/log_scale.h"

namespace fusescope {

class ChartView : public ChartBase {
    Q_OBJECT
  public:
    ChartView(QString title, QString fileStem, QWidget* parent = nullptr);

    const QString& title() const { return title_; }
    // A short name for exported files: "bytes_per_kernel".
    const QString& fileStem() const { return fileStem_; }
    void setRecording(const model::Recording& recording);
    const model::Recording& recording() const { return recording_; }
    // Rebuilds now (used before headless exports, where no event loop turns in between).
    void rebuildNow();
    // Linear, logarithmic, or by the spread of the values shown (kLogScaleSpread); charts
    // without a value axis of sizes or times ignore it.
    void setValueScale(ValueScale scale);
    ValueScale valueScale() const { return valueScale_; }

  protected:
    // Fills the plot from recording(); the axes and legend are reset before each call.
    virtual void rebuild() = 0;
    void changeEvent(QEvent* event) override;

    QColor readColor() const;
    QColor writeColor() const;
    QColor accentColor() const;
    // The value axis (yAxis) for values from `smallest` (the least above zero) to `largest`,
    // logarithmic as valueScale() asks, with `headroom` (a factor on a linear axis) above the
    // largest for labels; "log" joins the unit of `label` on a logarithmic one. Returns the value
    // bars start from: zero, or the bottom of a logarithmic axis.
    double setValueAxis(const QString& label, double smallest, double largest, double headroom);
    // A message in the middle of a chart that has nothing to show.
    void setEmptyMessage(const QString& message);
    // A line under the legend that explains what the chart shows (empty: none); reset at
    // each rebuild. `onScreenOnly` follows it on screen and is left out of exported files
    // ("hover a bar": a slide has no pointer).
    void setFootnote(const QString& text, const QString& onScreenOnly = QString());

  private:
    void scheduleRebuild();
    void applyPalette();
    void resetPlot();

    QString title_;
    QString fileStem_;
    model::Recording recording_;
    QCPTextElement* footnoteElement_ = nullptr;
    bool rebuildPending_ = false;
    ValueScale valueScale_ = ValueScale::Automatic;
};

// Decimal byte units for an axis: the divisor and its name for values up to `largest` bytes.
struct ByteUnit {
    double divisor = 1.0;
    QString name;
};
ByteUnit byteUnitFor(double largest);

}  // namespace fusescope
