#pragma once
// Feeds the live chart from the recording model: the worker's streamed snapshots while a run
// goes, or a whole run of a recording (made here or opened from a file).
#include <QString>
#include <span>

#include "live/live_bandwidth_chart.h"
#include "model/recording.h"

namespace fusescope::live {

// One streamed batch (RunController::samplesArrived): the engine's samples, kernel spans and
// allocations.
void appendToChart(LiveBandwidthChart& chart, std::span<const BandwidthSample> samples,
                   std::span<const fusescope::TimelineSpan> spans, const QString& variant = {});

// Every run of a recording that has samples, on one time axis; roofline, badge from its data.
// Returns false when no run has samples: no curves then, and the badge says why.
bool showRecording(LiveBandwidthChart& chart, const model::Recording& recording);

}  // namespace fusescope::live
