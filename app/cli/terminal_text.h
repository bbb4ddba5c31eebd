#pragma once
// Files shown by `show` come from anywhere: their names and descriptions are printed with every
// control character, line break and bidirectional override made visible, so a name can neither
// print a fake row of the table nor reorder the text after it.
#include "model/recording.h"
#include "model/sweep_json.h"
#include "tiles/tile_types.h"

namespace fusescope::cli {

model::Recording withTerminalSafeText(model::Recording recording);
model::SweepFile withTerminalSafeText(model::SweepFile sweep);
tiles::TileSweep withTerminalSafeText(tiles::TileSweep sweep);

}  // namespace fusescope::cli
