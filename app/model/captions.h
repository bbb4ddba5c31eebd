#pragma once
// One-line captions for charts, tables and exports: which device, size, dtype, vector width and
// data source produced the numbers, e.g.
// "NVIDIA H200 · N = 268,435,456 · float32 · vector 4 · timing + model".
#include <QString>

#include "model/recording.h"

namespace fusescope::model {

// The most direct source of a run's numbers: counters when measured, else the timing source.
DataSource primaryDataSource(const RunRecord& run);
// "timing + model", or "timing + model, replayed" for a recording read from a file.
QString dataSourceBadge(const Recording& recording, const RunRecord& run);

QString captionFor(const Recording& recording, const RunRecord& run);
// Caption for the whole recording; sizes or vector widths that differ between runs are listed.
QString captionFor(const Recording& recording);

}  // namespace fusescope::model
