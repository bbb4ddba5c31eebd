#pragma once
// A tile sweep (the engine's tiles::TileSweep) as what the explorer's views draw: the heatmap's
// cells for two chosen tile parameters and a metric (the others fixed or best-of), the
// roofline's points and the path one parameter traces, a cell's hover text, and a cell as a
// recording the results, charts and memory stage can show.
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <string>

#include "model/recording.h"
#include "model/tile_choices.h"
#include "ui/explorer/tile_heatmap_data.h"
#include "ui/explorer/tile_roofline_data.h"

namespace fusescope {

enum class TileMetric {
    Time,
    SpeedupOverBaseline,
    GBps,
    Tflops,
    DramBytes,
    Registers,
    Spills,
    Occupancy,
    AgainstPeer  // last: a saved choice is the enum's number
};
inline constexpr TileMetric kAllTileMetrics[] = {
    TileMetric::Time,        TileMetric::SpeedupOverBaseline,
    TileMetric::AgainstPeer, TileMetric::GBps,
    TileMetric::Tflops,      TileMetric::DramBytes,
    TileMetric::Registers,   TileMetric::Spills,
    TileMetric::Occupancy};

QString tileMetricTitle(TileMetric metric);  // "time (ms, median)"
bool tileMetricHigherIsBetter(TileMetric metric);
// The cell's value of the metric; empty where the cell has none (refused, not measured, no
// counters, no unfused reference, no peer time).
std::optional<double> tileMetricValue(const tiles::TileCell& cell, TileMetric metric,
                                      const tiles::TileSweep& sweep);

// The tuning's title from the registry ("BLOCK_M"), else its name.
QString tuningTitle(const std::string& pipeline, const std::string& tuning);
// The values a tuning takes in the sweep: an axis's values, else the base configuration's one.
std::vector<int> sweptValues(const tiles::TileSweep& sweep, const std::string& tuning);
// The references the views compare with, by the registry's declarations (no variant is named):
// the baseline the swept variant declares, and the pipeline's leanest variant; nullptr where the
// sweep did not time it.
const tiles::ReferenceTiming* baselineReference(const tiles::TileSweep& sweep);
const tiles::ReferenceTiming* leanestReference(const tiles::TileSweep& sweep);
// What the views call them: the baseline by its kernel count for the sweep's problem ("5
// kernels"), the leanest variant by its name.
QString baselineTitle(const tiles::TileSweep& sweep);
QString leanestTitle(const tiles::TileSweep& sweep);

struct TileHeatmapChoice {
    std::string xTuning;
    std::string yTuning;
    TileMetric metric = TileMetric::Time;
    // True: each cell shows the fastest configuration over the other parameters. False: the
    // other parameters at `fixed` (a tuning missing there takes the sweep's base value).
    bool bestOfOthers = true;
    std::map<std::string, int> fixed;
};

TileHeatmapData heatmapData(const tiles::TileSweep& sweep, const TileHeatmapChoice& choice,
                            const QString& dataSource);

// Every measured cell on the roofline; the path through the configurations where only
// `followed` changes and the others are as in `selection` (a tuning missing there takes the
// sweep's base value).
TileRooflineData rooflineData(const tiles::TileSweep& sweep, const std::string& followed,
                              const std::map<std::string, int>& selection,
                              const QString& dataSource);

// The full configuration, its numbers and its limiters, one fact a line.
QString cellTooltip(const tiles::TileCell& cell, const tiles::TileSweep& sweep);
// Lines of a resource report before anything runs (model numbers; compiled ones when known).
QStringList reportLines(const tiles::ResourceReport& report);

// The cell (and the sweep's reference variants) as a recording: the results table, the charts
// and the memory stage show it like any run. Kernel traffic is the registry's model for the
// cell's tiles; times are the sweep's medians.
model::Recording recordingOfCell(const tiles::TileSweep& sweep, int cellIndex);

}  // namespace fusescope
