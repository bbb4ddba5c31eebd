#pragma once
// The tile roofline: each measured configuration placed by arithmetic intensity against the copy
// roof and the measured compute roof (log-log), the unfused and production variants beside them,
// and arrows along the configurations one tile parameter steps through. A dumb view.
#include "ui/charts/data_chart.h"
#include "ui/explorer/tile_roofline_data.h"

namespace fusescope {

class TileRoofline final : public DataChart<TileRooflineData> {
    Q_OBJECT
  public:
    explicit TileRoofline(QWidget* parent = nullptr);

    // What is drawn, for tests.
    int pathArrows() const { return pathArrows_; }
    QCPGraph* pointsGraph() const { return points_; }

  private:
    void rebuild() override;
    void addRoofs(double xLow, double xHigh);
    void addPath();
    void applyPalette();

    QCPGraph* points_ = nullptr;
    int pathArrows_ = 0;
};

}  // namespace fusescope
