#pragma once
// What the tile explorer asks the worker, and what comes back, as plain values that cross threads
// by copy. The engine's own types (kernels/tiles/tile_types.h) travel inside unchanged.
#include <QMetaType>
#include <QString>

#include "model/recording.h"
#include "runtime/backend_selection.h"
#include "runtime/run_settings.h"
#include "tiles/tile_types.h"

namespace fusescope {

// The resource report of one configuration. Supersedable: a newer report request replaces one
// still queued (RunController::requestTileReport), so dragging a selector never piles up
// compilations. Without a usable GPU the report is the model's, for the table row `gpuKey`
// ("h200"; tiles::knownGpuKeys()), and says live numbers need an NVIDIA GPU.
struct TileReportCommand {
    tiles::TileConfiguration configuration;
    QString gpuKey = QStringLiteral("h200");
    // The report is always a GPU's (the CPU backend has no registers or shared memory): of the
    // target's GPU where one is usable, whatever its backend choice.
    Target target;
};

// The report and where its numbers come from.
struct TileReportOutcome {
    tiles::ResourceReport report;
    bool live = false;  // compiled and loaded on this machine's GPU
    QString note;       // "live: NVIDIA H200", or why only the model answered
};

// One configuration measured ("Run this configuration").
struct TileRunCommand {
    tiles::TileConfiguration configuration;
    RunSettings settings;
    Target target;
};

// The measured cell, and the run as a recording so a click can load it into the results, the
// charts and the memory stage.
struct TileRunOutcome {
    tiles::TileCell cell;
    model::Recording recording;
};

// The engine's request travels inside unchanged, its settings and target included.
struct TileSweepCommand {
    tiles::TileSweepRequest request;
};

struct TileSweepProgress {
    double fraction = 0.0;     // 0..1
    QString stage;             // "compiling 12 of 48 configurations", "timing block_m=64 ..."
    double etaSeconds = -1.0;  // < 0: not known yet
};

}  // namespace fusescope

Q_DECLARE_METATYPE(fusescope::TileReportCommand)
Q_DECLARE_METATYPE(fusescope::TileReportOutcome)
Q_DECLARE_METATYPE(fusescope::TileRunCommand)
Q_DECLARE_METATYPE(fusescope::TileRunOutcome)
Q_DECLARE_METATYPE(fusescope::TileSweepCommand)
Q_DECLARE_METATYPE(fusescope::TileSweepProgress)
Q_DECLARE_METATYPE(fusescope::tiles::TileCell)
Q_DECLARE_METATYPE(fusescope::tiles::TileSweep)
