#pragma once
// The run command's output, drawn from the Recording it writes (so the table and the JSON file
// always agree): a header with the device, backend, N, vector width, copy roofline and data
// source, then one row per variant.
#include <QStringList>

#include "model/recording.h"

namespace fusescope::cli {

QStringList resultsHeader(const model::Recording& recording);
QStringList resultsRows(const model::Recording& recording);  // table header, rule and rows
// What the bytes and FLOPs columns count, and per run the requests the L1 and L2 served.
QStringList trafficLegendLines(const model::Recording& recording);
QStringList checkFailureLines(const model::Recording& recording);
// Chains whose time back to back differs from their kernels timed apart, and by how much.
QStringList chainOverlapLines(const model::Recording& recording);
// Per kernel: model bytes beside DRAM bytes and sectors, the gap, and the reasons above 10%.
// Empty when nothing was measured with counters.
QStringList measurementRows(const model::Recording& recording);
QString renderResults(const model::Recording& recording);  // all of the above, with blank lines

}  // namespace fusescope::cli
