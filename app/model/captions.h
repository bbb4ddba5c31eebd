#pragma once
// One-line captions for charts, tables and exports: which device, size, dtype, vector width and
// data source produced the numbers, e.g.
// "NVIDIA H200 · N = 268,435,456 · float32 · vector 4 · timing + model".
#include <QString>

#include "model/recording.h"

namespace fusescope::model {

// The most direct source of a run's numbers: counters when measured, else the timing source.
DataSource primaryDataSource(const VariantResult& run);
// "timing + model", or "timing + model, replayed" for a recording read from a file.
QString dataSourceBadge(const Recording& recording, const VariantResult& run);

// The device as captions name it: the GPU's name, or for the CPU backend its model, the
// threads it ran on and its kernels' instruction set, "Intel Xeon (2 threads, AVX2+FMA)".
QString deviceLabel(const DeviceInfo& device);

QString captionFor(const Recording& recording, const VariantResult& run);

// What a run's correctness check covered: "over all 4,096 elements", or for a large output
// "over 1,048,576 sampled elements of 16,777,216; every element checked for being written".
QString checkScope(const VariantResult& run);
// Where a failed check found the output wrong: "out2[1,717] holds 5.5 where 4.5 was expected",
// "out2[42] was never written"; empty where the run does not say.
QString wrongElementText(const VariantResult& run);
// "N = 16,777,216 · float32 · vector 4", "M = 512, H = 1,024, I = 2,816 · bfloat16 · BLOCK_M 32
// ...": the tuning parameters the run's variant takes, and no other.
QString problemLabel(const VariantResult& run);
// The runs' problems in one label; values that differ between runs are listed, and each tuning
// parameter with the values of the runs whose variant takes it (empty for no runs).
QString problemLabel(const Recording& recording);
// Caption for the whole recording; sizes or vector widths that differ between runs are listed.
QString captionFor(const Recording& recording);

}  // namespace fusescope::model
