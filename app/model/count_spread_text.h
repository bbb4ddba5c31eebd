#pragma once
// A counted byte count as the views and the CLI write it: the median, and where the counted
// launches moved it by more than 3% or 1 MB, the range beside it, so a reader sees at once that
// the number is one of several the same launch gave.
#include <QString>
#include <QStringList>
#include <optional>

#include "model/recording.h"
#include "runtime/runner.h"

namespace fusescope::model {

// "5.57 GB", or "5.57 GB (3.80 GB–7.21 GB)" where the launches moved it past the tolerance.
QString bytesWithSpreadText(double medianBytes, const std::optional<CountSpread>& spread);

// "Median of 5 counted launches: lowest 3.80 GB, highest 7.21 GB"; empty when counted once.
QString spreadToolTip(const std::optional<std::uint32_t>& countedLaunches,
                      const std::optional<CountSpread>& spread);

// One line for each of the run's kernels whose DRAM reads or writes moved past the tolerance over
// its counted launches: "swiglu_mlp_lesson: DRAM reads 602 GB–1.10 TB over 3 counted launches
// (median 813 GB)". Empty where none moved.
QStringList movedCountLines(const VariantResult& run);

// The run's DRAM bytes, reads and writes of every kernel, at their counted launches' lowest and
// highest, where any kernel's count moved past the tolerance (a kernel that did not move adds its
// median to both ends); empty where none moved or a kernel was not counted.
std::optional<CountSpread> runDramSpread(const VariantResult& run);

// How often the counter run counted each launch of the recording, where more than once (a run
// counts all its launches alike; the most any kernel had).
std::optional<std::uint32_t> countedLaunchesOf(const Recording& recording);

}  // namespace fusescope::model
