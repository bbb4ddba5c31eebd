#pragma once
// The tile roofline: each measured configuration placed by arithmetic intensity against the copy
// roof and the measured compute roof (log-log), the unfused and production variants beside them,
// and arrows along the configurations one tile parameter steps through. A dumb view.
#include "ui/charts/chart_base.h"
#include "ui/explorer/tile_roofline_data.h"

namespace fusescope {

class TileRoofline final : public ChartBase {
    Q_OBJECT
  public:
    explicit TileRoofline(QWidget* parent = nullptr);

    void setData(const TileRooflineData& data);
    const TileRooflineData& data() const { return data_; }

    // What is drawn, for tests.
    int pathArrows() const { return pathArrows_; }
    QCPGraph* pointsGraph() const { return points_; }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void rebuild();
    void addRoofs(double xLow, double xHigh);
    void addPath();
    void applyPalette();

    TileRooflineData data_;
    QCPGraph* points_ = nullptr;
    int pathArrows_ = 0;
};

}  // namespace fusescope
