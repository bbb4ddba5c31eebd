#pragma once
// What the worker's tile commands call to compile and time tile configurations: the tiles
// engine (kernels/tiles) in the program, a stand-in compiler and executor in tests, so sweeps'
// progress, cancelling, compile failures and superseding can be exercised with deterministic
// timings and no GPU. Called on the worker thread only.
#include <memory>

#include "core/status.h"
#include "runtime/backend.h"
#include "runtime/runner.h"
#include "tiles/tile_sweep.h"
#include "tiles/tile_types.h"

namespace fusescope {

class TileEngine {
  public:
    virtual ~TileEngine() = default;
    // As tiles::reportFor: the live report of one configuration, compiled and loaded.
    virtual Result<tiles::ResourceReport> report(Backend& backend,
                                                 const tiles::TileConfiguration& configuration) = 0;
    // As tiles::runConfiguration: one configuration measured like a run of its variant.
    virtual Result<tiles::TileRunResult> run(Backend& backend,
                                             const tiles::TileConfiguration& configuration,
                                             const RunSettings& settings,
                                             RunObserver& observer) = 0;
    // As tiles::runTileSweep: compile every configuration, then time each one.
    virtual Result<tiles::TileSweep> sweep(Backend& backend, const tiles::TileSweepRequest& request,
                                           tiles::TileObserver& observer) = 0;
};

// The program's engine: the functions of kernels/tiles/tile_sweep.h, unchanged.
std::shared_ptr<TileEngine> productionTileEngine();

}  // namespace fusescope
