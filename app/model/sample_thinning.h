#pragma once
// Makes a recording small enough to ship without changing what it shows: PM sampling runs over
// the whole measured run, and most of it is idle (uploads, allocations, gaps between repeats).
// Each idle stretch becomes one sample carrying the same bytes; samples near activity stay.
#include <vector>

#include "model/recording.h"

namespace fusescope::model {

struct ThinningOutcome {
    qsizetype samplesBefore = 0;
    qsizetype samplesAfter = 0;
};

// Merges each run of consecutive samples below `idleFraction` of the largest sample's bandwidth
// into one sample spanning it (bytes kept exactly: its rates are the stretch's average). The
// samples on either side of activity are kept as they were, so a kernel's edges stay sharp.
ThinningOutcome mergeIdleSamples(std::vector<BandwidthSample>& samples, double idleFraction);

// Applies mergeIdleSamples to every run and records, per run, how many samples there were
// (VariantResult::samplesBeforeThinning), so the recording says it was thinned.
ThinningOutcome mergeIdleSamples(Recording& recording, double idleFraction);

}  // namespace fusescope::model
