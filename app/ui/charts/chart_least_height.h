#pragma once
// A run chart keeps room for its data: its title, legend and rotated tick labels take what they
// need, and the plot under them at least a few lines of text more. The chart's least height
// follows what its layout measures, so a splitter beside a tall view (the memory stage) leaves
// it that room rather than a strip with a cut axis title.
class QCustomPlot;

namespace fusescope {

// Lines of the chart's text the plot area keeps at least (and the value axis's whole title).
constexpr double kLeastPlotLines = 4.0;

void keepLeastPlotHeight(QCustomPlot* chart);

}  // namespace fusescope
