#pragma once
// Whether fusion paid off in a recording, and why, in words: the pipeline's leanest fusion
// against the baseline it declares (the framework-style path), with what bounds the time at this
// size; then every fused variant that loses to its baseline, with the measured cause in numbers.
#include <QString>

#include "model/recording.h"

namespace fusescope::model {

// "production is 1.02x faster than unfused (2.00 ms against 2.04 ms). At this size the
// multiplications take the time: production runs at 722 TFLOP/s, 81% of the compute roof
// measured in the same run, so keeping g_u_h on chip saves little. lesson_fused is 142x slower
// than unfused (277 ms against 1.94 ms). It recomputes g and u for each of 64 output tiles (43x
// the useful FLOPs) at 224 TFLOP/s, 25.1% of the compute roof; it moves 303x the DRAM bytes of
// unfused (772 GB against 2.55 GB, measured)." Then a sentence for each variant the run left
// out, with the reason ("Not run: production cannot run here: ..."). Empty where the recording
// times no fused variant's baseline and left none out.
QString fusionVerdict(const Recording& recording);

}  // namespace fusescope::model
