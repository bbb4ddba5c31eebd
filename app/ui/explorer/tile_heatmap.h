#pragma once
// The tile sweep's heatmap: two tile parameters on the axes, the chosen metric in colour, the
// best cell starred and the cells tied with it ringed, refused cells hatched (the reason on
// hover), a contour around the cells faster than the 5-kernel path, and the unfused and
// production variants marked on the same colour scale. Hover shows a cell's configuration, its
// numbers and its limiter; a click (not a drag) reports the cell. A dumb view: it draws the
// TileHeatmapData it is given.
#include <QPointF>
#include <QString>

#include "ui/charts/data_chart.h"
#include "ui/explorer/tile_heatmap_data.h"

namespace fusescope {

class TileHeatmap final : public DataChart<TileHeatmapData> {
    Q_OBJECT
  public:
    explicit TileHeatmap(QWidget* parent = nullptr);

    // The cell under `at` (plot pixels), or nullptr.
    const TileHeatmapCell* cellAt(const QPointF& at) const;
    // The hover text for `at`: the cell's tooltip, or empty outside every cell.
    QString tooltipAt(const QPointF& at) const;
    // Where the cell's centre is drawn now (plot pixels).
    QPointF cellCentre(const TileHeatmapCell& cell) const;

    // What is drawn, for tests.
    QCPColorMap* colorMap() const { return map_; }
    QCPColorScale* colorScale() const { return scale_; }
    int refusedMarks() const { return refusedMarks_; }
    int contourSegments() const { return contourSegments_; }
    bool logScale() const { return logScale_; }
    // References outside the cells' colour range, drawn at the bar's end.
    int offScaleMarks() const { return offScaleMarks_; }

    // Cells spanning more than this factor are coloured on a log scale (time-like metrics).
    static constexpr double kLogScaleSpan = 10.0;

  signals:
    void cellClicked(int runIndex);

  protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

  private:
    void rebuild() override;
    void addMarks();
    void addContour();
    void addScaleMarks(double low, double high);
    void applyPalette();
    void placeSummary();
    // Every value's label where the cells leave room for it, else every second, third, ...
    void thinTickLabels();

    QCPTextElement* summary_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QPointF pressedAt_;
    bool pressed_ = false;
    int refusedMarks_ = 0;
    int contourSegments_ = 0;
    int offScaleMarks_ = 0;
    bool logScale_ = false;
    int xTickStep_ = 1;
    int yTickStep_ = 1;
};

}  // namespace fusescope
