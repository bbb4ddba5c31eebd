#pragma once
// The size sweep chart: time and effective bandwidth against N (log), one series per variant
// (told apart by colour and by marker shape), the fitted launch-overhead + bandwidth model as
// dashed curves, the L2 size as a vertical line, the launch-overhead and bandwidth regimes shaded,
// the fitted numbers and a data-source badge. Two sweeps compared (SweepChartData::recordings):
// both on the same axes, the variants by colour and marker, the recordings by line style and
// filled or hollow markers, named in the legend; no fits, regimes or L2 lines, which
// differ per device. A dumb view: it draws the SweepChartData it is given and nothing else.
#include <QString>
#include <QVector>

#include "model/sweep_chart_data.h"
#include "ui/charts/data_chart.h"

namespace fusescope {

class SweepChart final : public DataChart<SweepChartData> {
    Q_OBJECT
  public:
    explicit SweepChart(QWidget* parent = nullptr);

    // Empty on success, otherwise why the file could not be written.
    QString exportPng(const QString& path, int width = 1200, int height = 900);

    // What is drawn, for tests and for captions of exported files.
    QCPAxisRect* timeRect() const { return timeRect_; }
    QCPAxisRect* bandwidthRect() const { return bandwidthRect_; }
    double shownL2N() const { return shownL2N_; }                    // 0: no L2 line
    double shownRegimeBoundaryN() const { return shownBoundaryN_; }  // 0: no regimes shaded
    QString fitText() const { return fitText_; }
    QString badgeText() const { return badgeText_; }        // empty before any sweep
    QString emptyMessage() const { return emptyMessage_; }  // shown instead of empty axes

  private:
    // Rebuilds the plottables now and replots on the next event-loop turn, so a sweep that
    // streams in point by point (setData) costs one replot per turn, not one per point.
    void rebuild() override;
    // The swept dimension's name ("N", the MLP's "M"), or "size" where the data names none.
    QString sizeName() const;
    // `variant`: the series' place among the variants, which picks its colour and marker.
    void addSeries(const SweepChartSeries& series, int variant);
    // A curve of `y` against sorted `x` on `rect`'s bottom and left axes, in the legend.
    QCPGraph* addCurve(QCPAxisRect* rect, const QString& name, const QPen& pen,
                       const QVector<double>& x, const QVector<double>& y);
    void addRoofline();
    void addKeys(const QStringList& variants);
    void addL2Line(double xLow, double xHigh);
    void addRegimes(double xLow, double xHigh);
    void addFitText();
    void addBadge();
    void fitRanges(double& xLow, double& xHigh);
    void applyPalette();

    QCPTextElement* badgeElement_ = nullptr;
    QCPAxisRect* timeRect_ = nullptr;
    QCPAxisRect* bandwidthRect_ = nullptr;
    double shownL2N_ = 0.0;
    double shownBoundaryN_ = 0.0;
    QString fitText_;
    QString badgeText_;
    QString emptyMessage_;
};

}  // namespace fusescope
