#pragma once
// A chart drawn from a recording. Subclasses build their plottables in rebuild(); the base class
// adds the caption (title, device, N, dtype, vector, data-source badge), follows the palette,
// and batches updates: setRecording() only schedules one queued rebuild and replot.
#include <QString>

#include "model/recording.h"
#include "ui/plot.h"

namespace fusescope {

class ChartView : public QCustomPlot {
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

  protected:
    // Fills the plot from recording(); the axes and legend are reset before each call.
    virtual void rebuild() = 0;
    void changeEvent(QEvent* event) override;

    QColor textColor() const;
    QColor readColor() const;
    QColor writeColor() const;
    QColor accentColor() const;
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
    QCPTextElement* titleElement_ = nullptr;
    QCPTextElement* captionElement_ = nullptr;
    QCPTextElement* footnoteElement_ = nullptr;
    bool rebuildPending_ = false;
};

// Decimal byte units for an axis: the divisor and its name for values up to `largest` bytes.
struct ByteUnit {
    double divisor = 1.0;
    QString name;
};
ByteUnit byteUnitFor(double largest);

}  // namespace fusescope
