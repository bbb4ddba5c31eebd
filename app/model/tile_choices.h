#pragma once
// What the tile explorer asks of the tile model without a GPU or the worker: the GPUs the model
// knows, their limits, the model's resource report of a configuration, the configurations of a
// sweep, the limiter words of measured cells. The types are the engine's (tiles/tile_types.h).
#include <QString>
#include <optional>
#include <vector>

#include "tiles/tile_types.h"  // IWYU pragma: export

namespace fusescope::model {

struct KnownGpu {
    QString key;   // "h200"
    QString name;  // the spec sheet's name, or the key where the model has none
};

std::vector<KnownGpu> knownGpus();
std::optional<tiles::DeviceLimits> knownGpuLimits(const QString& key, DType dtype);
// The model's numbers (traffic, FLOPs, grid against SMs, refusal) for `limits`.
tiles::ResourceReport modelReport(const tiles::TileConfiguration& configuration,
                                  const tiles::DeviceLimits& limits);
// The tuning parameters the configuration's variant takes, in declaration order; none where the
// registry does not know its pipeline.
std::vector<const TuningSpec*> variantTunings(const tiles::TileConfiguration& configuration);
// "block_m=64 block_n=64 ...": the variant's tunings in declaration order.
QString tilesText(const tiles::TileConfiguration& configuration);
// The cells' limiters in words and the best and tied marks (idempotent: call as cells arrive).
void describeCells(tiles::TileSweep& sweep);

}  // namespace fusescope::model
