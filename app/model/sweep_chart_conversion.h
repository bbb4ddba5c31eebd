#pragma once
// From the engine's sweep report, measured now or read back from a sweep file, to what the sweep
// chart draws.
#include <QStringList>

#include "analysis/sweep.h"
#include "model/sweep_chart_data.h"
#include "model/sweep_json.h"
#include "pipelines/registry.h"

namespace fusescope::model {

SweepChartData sweepChartData(const SweepReport& report);
// The size `pipeline`'s sweeps vary, described into `data`: the dimension's name and title (left
// empty where the registry lacks the pipeline), and the bytes of one of its elements where every
// buffer is an array of that size, so that the L2 line marks the size one array fills the L2 at.
// Elsewhere (the MLP's M, whose weights do not grow with it) no L2 line is drawn.
void describeSweptSize(SweepChartData& data, const PipelineSpec* pipeline);
// What a sweep of `pipeline` runs, in words for a caption: the dtype of its default problem
// ("bfloat16" for the MLP), and the vector width where the pipeline has that tuning.
QStringList sweptProblemWords(const PipelineSpec* pipeline, int vectorWidth);
// The sentence that says which sizes one array of the swept size fits in a cache of `bytes`
// ("one float32 array fits up to N = 4,194,304"); empty where the pipeline's buffers are not
// arrays of the swept size.
QString cacheFitWords(const PipelineSpec* pipeline, quint64 bytes);
// A file's sweep: its badge says the numbers are replayed.
SweepChartData sweepChartData(const SweepFile& file);

}  // namespace fusescope::model
