#pragma once
// Whether fusion paid off in a recording, and why, in words: the pipeline's leanest fusion
// against its first (framework-style) variant, with what bounds the time at this size.
#include <QString>

#include "model/recording.h"

namespace fusescope::model {

// "production is 1.02x faster than unfused (2.00 ms against 2.04 ms). At this size the
// multiplications take the time: production runs at 722 TFLOP/s, 81% of the compute roof
// measured in the same run, so keeping g_u_h on chip saves little." Empty where the pipeline
// declares no leanest fusion or the recording lacks it or its first variant.
QString fusionVerdict(const Recording& recording);

}  // namespace fusescope::model
