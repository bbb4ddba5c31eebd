#pragma once
// What the tile heatmap draws, as plain values: two tile parameters on the axes, one metric per
// cell, refusals with their reasons, the best cell and the cells tied with it, and the cells
// faster than the unfused (5-kernel) path. Converted from a tile sweep by tile_sweep_view.h; the
// heatmap itself draws exactly this and nothing else.
#include <QString>
#include <QVector>
#include <optional>

namespace fusescope {

struct TileHeatmapCell {
    int column = 0;               // index into TileHeatmapData::xValues
    int row = 0;                  // index into TileHeatmapData::yValues
    std::optional<double> value;  // the metric; empty for a refused or not yet measured cell
    QString refusal;              // why the configuration was refused; empty when it ran
    bool best = false;
    bool tiedWithBest = false;        // its interval overlaps the best one's
    bool fasterThanBaseline = false;  // faster than the 5-kernel path at the same shape
    QString tooltip;    // the full configuration, its numbers and its limiter in words
    int runIndex = -1;  // the sweep's configuration this cell shows (clicks load it)
};

struct TileHeatmapData {
    QString title;
    // What the metric compares, in words, above the caption (the peer's summary under "time ÷
    // the peer's"); empty for the other metrics.
    QString summary;
    QString caption;     // device · shape · dtype · what the other parameters are
    QString dataSource;  // "measured on NVIDIA H200 …", "recorded file …": named by tooltips
    QString xTitle;      // "BLOCK_N"
    QString yTitle;      // "BLOCK_M"
    QVector<int> xValues;
    QVector<int> yValues;
    QString metricTitle;  // "time (ms)"
    bool higherIsBetter = false;
    // Time-like metrics: cells spanning more than a factor of 10 are coloured on a log scale.
    bool logScaleWhenWide = false;
    QVector<TileHeatmapCell> cells;
    // The unfused and production variants at the same shape, in the metric's unit, marked on the
    // cells' colour scale (at its end when outside it: they never stretch it); empty when the
    // sweep has no such measurement or the metric has none.
    std::optional<double> baselineValue;
    std::optional<double> leanestValue;
    QString baselineTitle;  // the legend's words for them: "5 kernels", "production"
    QString leanestTitle;
    QString emptyMessage;  // shown instead of empty axes
};

}  // namespace fusescope
