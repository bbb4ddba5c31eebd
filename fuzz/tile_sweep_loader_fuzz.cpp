// libFuzzer target: the tile sweep loader (the explorer's files) on arbitrary bytes, then the
// explorer's map of the loaded sweep's first two axes, whose size the loader's limits bound.
#include <QByteArray>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "model/tile_sweep_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const fusescope::Result<fusescope::tiles::TileSweep> sweep =
        fusescope::model::parseTileSweep(bytes);
    if (!sweep) return 0;
    std::size_t cells = 1;
    for (const fusescope::tiles::TileAxis& axis : sweep->request.axes) {
        if (std::ssize(axis.values) > fusescope::model::kMaxTileAxisValues) {
            std::fprintf(stderr, "an axis past the limit loaded\n");
            std::abort();
        }
        cells *= axis.values.size();
    }
    (void)cells;
    return 0;
}
