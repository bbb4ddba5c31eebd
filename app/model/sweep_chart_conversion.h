#pragma once
// From the engine's sweep report, measured now or read back from a sweep file, to what the sweep
// chart draws.
#include "analysis/sweep.h"
#include "model/sweep_chart_data.h"
#include "model/sweep_json.h"
#include "pipelines/registry.h"

namespace fusescope::model {

SweepChartData sweepChartData(const SweepReport& report);
// The dimension `pipeline`'s sweeps vary, named into `data` (left empty where the registry
// lacks the pipeline).
void nameSweptDimension(SweepChartData& data, const PipelineSpec* pipeline);
// A file's sweep: its badge says the numbers are replayed.
SweepChartData sweepChartData(const SweepFile& file);

}  // namespace fusescope::model
