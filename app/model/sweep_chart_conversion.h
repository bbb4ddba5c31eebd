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
// The swept size up to which one float32 array of that size fits in a cache of `bytes`; 0 where
// the cache is unknown or `pipeline`'s buffers are not arrays of the swept size (the MLP's
// weights do not grow with M). Elementwise pipelines sweep float32 arrays.
quint64 sizeOneArrayFills(const PipelineSpec* pipeline, quint64 bytes);
// The size `pipeline`'s sweeps vary, described into `data`: the dimension's name and title (left
// empty where the registry lacks the pipeline), and the bytes of one element where every buffer
// is an array of that size (0 elsewhere: no L2 line is drawn).
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
