#pragma once
// The tile explorer's runs, on the thread that owns the backend: a configuration's live resource
// report (compiling it if needed), one configuration measured, and a tile sweep that compiles
// every configuration (in parallel, through the module cache) and then times each one, with
// the pipeline's other variants timed once on the same scale.
#include <cstddef>
#include <string_view>

#include "core/status.h"
#include "runtime/backend.h"
#include "runtime/run_settings.h"
#include "runtime/runner.h"
#include "tiles/tile_types.h"

namespace fusescope::tiles {

class TileObserver {
  public:
    virtual ~TileObserver() = default;
    // fraction in [0, 1]; etaSeconds < 0 while unknown.
    virtual void progress(double fraction, std::string_view stage, double etaSeconds) {
        (void)fraction, (void)stage, (void)etaSeconds;
    }
    // Each cell as soon as it is known (refused cells too), `index` in configurationsOf order.
    virtual void cellMeasured(const TileCell& cell, std::size_t index) { (void)cell, (void)index; }
    virtual bool cancelled() const { return false; }
};

// The backend's device as limits (live), for the dtype; roofs are left at zero (a sweep
// measures them).
DeviceLimits liveLimits(Backend& backend, DType dtype);

// The report of one configuration on this backend: on a GPU the kernel is compiled (or found in
// the cache) and loaded, so registers, spills and occupancy are the loaded kernel's. A refusal is
// part of the report, not an error; errors are for a backend that cannot answer.
Result<ResourceReport> reportFor(Backend& backend, const TileConfiguration& configuration);

// One configuration measured like a run of its variant; `run` is the whole runner report (for
// recordings and the memory stage).
struct TileRunResult {
    TileCell cell;
    RunReport run;
};
Result<TileRunResult> runConfiguration(Backend& backend, const TileConfiguration& configuration,
                                       const RunSettings& settings, RunObserver& observer);

// The run that times one configuration of a sweep (or its base, for the references): the
// configuration's variant with the sweep's settings and target.
RunRequest cellRunRequest(const TileSweepRequest& request, const TileConfiguration& configuration);

// The whole sweep. Cancelling returns the cells measured so far with `cancelled` set (an error
// only when nothing was measured).
Result<TileSweep> runTileSweep(Backend& backend, const TileSweepRequest& request,
                               TileObserver& observer);

}  // namespace fusescope::tiles
