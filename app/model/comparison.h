#pragma once
// Two recordings side by side (the same pipeline on the CPU and on the H200, or on two GPUs): the
// variants both have, matched by pipeline and variant, with the ratios between them. Plain
// values for the compare window's table and charts.
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

#include "model/recording.h"

namespace fusescope::model {

struct VariantComparison {
    QString pipeline;
    QString variant;
    int runA = -1;  // index in the first recording's runs
    int runB = -1;  // index in the second's
    double timeMsA = 0.0;
    double timeMsB = 0.0;
    quint64 bytesA = 0;  // requested, by the model, read + written (re-reads counted)
    quint64 bytesB = 0;
    // DRAM bytes (measured, or the model's distinct bytes) over the time where both runs have
    // them; else the requested bytes over the time, and gbpsOfDram is false.
    double gbpsA = 0.0;
    double gbpsB = 0.0;
    bool gbpsOfDram = false;
    QString dramSourceA;  // "measured", "model" (run_traffic.h), or empty without DRAM bytes
    QString dramSourceB;

    // B over A; nothing where A is 0 (a ratio to nothing is no number).
    std::optional<double> timeRatio() const;
    std::optional<double> bytesRatio() const;
    std::optional<double> gbpsRatio() const;
};

struct RecordingComparison {
    QString labelA;  // "NVIDIA H200, 2026-11-30" (the device, and the day where recorded)
    QString labelB;
    QVector<VariantComparison> variants;  // in the first recording's order
    QStringList onlyInA;                  // "swiglu/scratch": variants the other lacks
    QStringList onlyInB;
    QStringList problemsDiffer;  // variants measured at different problems, in words
};

// Matches the runs by pipeline and variant (the first of each, where one is repeated).
RecordingComparison compareRecordings(const Recording& a, const Recording& b);

// "0.0123x", "1.44x", "81.3x": a ratio with three significant digits; "—" for none.
QString formatRatio(const std::optional<double>& ratio);

}  // namespace fusescope::model
