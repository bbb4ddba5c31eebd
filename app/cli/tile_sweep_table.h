#pragma once
// A tile sweep as the terminal shows it, after `fusescope-cli tiles` and in `show`: a row a
// configuration (time, rates, resources, check, rank, limiter, and the peer's time and the ratio
// where the sweep has a peer), the references, the roofs, the counts, and the comparison with
// the peer.
#include <QStringList>

#include "tiles/tile_types.h"

namespace fusescope::cli {

QStringList renderTileSweep(const tiles::TileSweep& sweep);
// "4030 GB/s (measured copy in this run)", or "not known".
QString roofText(double value, const char* unit, const std::string& source);

}  // namespace fusescope::cli
