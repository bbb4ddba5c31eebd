#pragma once
// Recordings and sweeps in words: a title, a one-line description of what they show, and the
// replay label the window shows over a recording opened from a file.
#include <QString>

#include "model/recording.h"
#include "model/sweep_json.h"
#include "tiles/tile_types.h"

namespace fusescope::model {

// "SwiGLU activation on NVIDIA H200"
QString recordingTitle(const Recording& recording);
// The recording's own description when it has one; otherwise derived from its runs:
// "scratch, two launches, fused: N = 16,777,216 · float32 · vector 4; fused 1.67x faster than
// scratch (0.05 ms against 0.08 ms)".
QString recordingDescription(const Recording& recording);

// "Size sweep of swiglu on NVIDIA H200"
QString sweepTitle(const SweepFile& sweep);
// The file's own description, or "fused, scratch over N = 4,096 to 268,435,456 (17 sizes)".
QString sweepDescription(const SweepFile& sweep);

// The GPU a tile sweep ran on (or whose table it was modelled for).
QString tileSweepDevice(const tiles::TileSweep& sweep);
// "Tile sweep of SwiGLU MLP (lesson_fused) on NVIDIA H200"
QString tileSweepTitle(const tiles::TileSweep& sweep);
// "M = 512, H = 1,024, I = 2,816 · bfloat16: 48 tilings of block_m, block_n, block_i (12
// refused); best 0.512 ms at block_m 64, block_n 32, block_i 64"
QString tileSweepDescription(const tiles::TileSweep& sweep);

// "NVIDIA H200, 2026-11-30": the device and the day a recording was made, as the replay label
// and the catalog name them. The date is left out when the file has none.
QString deviceAndDay(const QString& deviceName, const QString& createdAt);
// "replay of a run on NVIDIA H200, 2026-11-30"
QString replayLabel(const Recording& recording);

}  // namespace fusescope::model
