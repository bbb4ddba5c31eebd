#pragma once
// From the engine's sweep report to the chart's plain data.
#include "analysis/sweep.h"
#include "ui/sweep/sweep_chart_data.h"

namespace fusescope {

SweepChartData sweepChartData(const SweepReport& report);

}  // namespace fusescope
