#pragma once
// The answer to a limit question, "which resource limits this tile": the tile model's limits of
// the step's tunable variant at the step's tile, from the shipped tile sweep that measured it
// (registers, spills and occupancy are the compiled kernel's; the roofs the sweep's own).
#include <QString>

#include "core/status.h"
#include "model/lesson/lesson_reveal.h"
#include "tiles/tile_types.h"

namespace fusescope::model {

// The step's problem with its tile, for `variant`; the reason where the tile does not parse.
Result<tiles::TileConfiguration> stepTileConfiguration(const LessonShow& show,
                                                       const QString& variant);
// The answer at `configuration` in `sweep` (file `sweepName`): the first limit's resource, the
// reason in the model's words; the reason where no cell of the sweep has that tile.
Result<MeasuredAnswer> tileLimitAnswer(const tiles::TileSweep& sweep, const QString& sweepName,
                                       const tiles::TileConfiguration& configuration);
// The same for a step as the plan gives it (its tile sweep read from its path).
Result<MeasuredAnswer> measureTileLimit(const LessonStep& step);

}  // namespace fusescope::model
