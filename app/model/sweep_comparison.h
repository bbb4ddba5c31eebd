#pragma once
// Two size sweeps of one pipeline side by side (the shipped H200 sweep and a CPU sweep made in a
// classroom, or two GPUs): per variant the time and bandwidth of both at every N, the ratios at
// the sizes both measured, and one chart of both on one scale. Plain values for the compare
// window.
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

#include "core/status.h"
#include "model/sweep_chart_data.h"
#include "model/sweep_json.h"

namespace fusescope::model {

// One N of one variant; a side is empty where that sweep did not measure this N.
struct SweepSizeComparison {
    double n = 0.0;
    std::optional<double> timeMsA;
    std::optional<double> timeMsB;
    std::optional<double> gbpsA;  // effective: model bytes over time
    std::optional<double> gbpsB;

    bool inBoth() const { return timeMsA.has_value() && timeMsB.has_value(); }
    // B over A, as Compare for runs; nothing where a side is missing or A is 0.
    std::optional<double> timeRatio() const;
    std::optional<double> gbpsRatio() const;
};

struct SweepVariantComparison {
    QString variant;
    QVector<SweepSizeComparison> sizes;  // every N either sweep measured, ascending
    // Each sweep's fit of time = launches x overhead + bytes / bandwidth; empty where that
    // sweep has none (fitErrorA or fitErrorB says why).
    std::optional<SweepChartFit> fitA;
    std::optional<SweepChartFit> fitB;
    QString fitErrorA;
    QString fitErrorB;

    // The fitted bandwidths, B over A; nothing without both fits.
    std::optional<double> fitBandwidthRatio() const;
};

struct SweepComparison {
    QString pipeline;  // "swiglu"
    // The dimension both sweeps vary, as the registry names it ("N", "M"); "size" for a pipeline
    // this program does not know.
    QString sizeDimension;
    QString labelA;  // "NVIDIA H200 (CUDA), 2026-11-30": device, backend and day
    QString labelB;
    QString settingsA;  // "vector 4, median of 20"
    QString settingsB;
    QVector<SweepVariantComparison> variants;  // the variants both swept, in A's order
    QStringList variantsOnlyInA;
    QStringList variantsOnlyInB;
    QVector<double> sharedSizes;  // N both sweeps list, ascending
    QVector<double> sizesOnlyInA;
    QVector<double> sizesOnlyInB;
    // Both sweeps on one chart: the variants both swept, coloured by variant, the recordings
    // told apart by line style and named in the legend.
    SweepChartData chart;
};

// "NVIDIA H200 (CUDA)", "Intel Xeon (CPU backend, 2 threads)": the device and its backend.
QString sweepDeviceLabel(const SweepFile& sweep);

// Refuses sweeps of different pipelines, with the reason in words.
Result<SweepComparison> compareSweeps(const SweepFile& a, const SweepFile& b);

// What Compare is given: a recording of runs or a size sweep.
enum class ComparedKind { Runs, SizeSweep };

// Empty when a `shown` recording can be compared with `other` (named `otherName`); otherwise why
// not, in words: Compare takes two recordings of runs or two size sweeps.
QString compareKindsRefusal(ComparedKind shown, ComparedKind other, const QString& otherName);

}  // namespace fusescope::model
