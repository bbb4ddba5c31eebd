#pragma once
// What the sweep chart draws, as plain values: the chart knows nothing of backends or runners.
#include <QString>
#include <QVector>
#include <optional>

namespace fusescope {

struct SweepChartPoint {
    double n = 0.0;             // elements
    double timeMs = 0.0;        // measured, one run of the variant
    double gbps = 0.0;          // effective: model bytes over time
    double rooflineGBps = 0.0;  // the copy roofline at the same N; 0 when not measured
};

// time = launches x overhead + N x bytesPerElement / bandwidth
struct SweepChartFit {
    double overheadUs = 0.0;
    double bandwidthGBps = 0.0;
    bool overheadClamped = false;
    double boundaryN = 0.0;   // where the two terms are equal; 0 when there is none
    int samplesSetAside = 0;  // sizes the robust fit left out
};

struct SweepChartSeries {
    QString name;       // the variant, "fused"
    int recording = 0;  // which of SweepChartData::recordings measured it (0 with one sweep)
    int launches = 1;
    double bytesPerElement = 0.0;
    QVector<SweepChartPoint> points;
    std::optional<SweepChartFit> fit;
    QString fitError;  // shown instead of the numbers when there is no fit

    double fittedTimeMs(double n) const;  // 0 without a fit
};

// One of two sweeps drawn on one chart to compare them: the legend names it, and its series are
// drawn in its own line style (the variants keep their colours).
struct SweepChartRecording {
    QString name;  // "A: NVIDIA H200 (CUDA), 2026-11-30"
    double l2CacheBytes = 0;
};

struct SweepChartData {
    QString title;            // "Size sweep: SwiGLU activation"
    QString caption;          // "NVIDIA H200 · float32 · vector 4 · median of 20"
    QString dataSource;       // the badge: "timing + model", "CPU backend", ...
    double l2CacheBytes = 0;  // 0: unknown, no line drawn
    // float32: an array of N elements is N x 4 bytes. 0 where the buffers are not arrays of the
    // swept size (no L2 line).
    double elementBytes = 4;
    // The dimension the sweep varies, as the registry names it ("N", the MLP's "M") and what it
    // counts ("elements per array"): the x axis's name. Empty: the axis says "size".
    QString sizeDimension;
    QString sizeTitle;
    QVector<SweepChartSeries> series;
    // Two when two sweeps are compared (l2CacheBytes above is then unused); empty for one sweep.
    QVector<SweepChartRecording> recordings;

    bool comparesRecordings() const { return recordings.size() > 1; }
};

}  // namespace fusescope
