#pragma once
// Model beside measurement, drawn from a Recording (so an opened recording explains its gaps
// just as a live run does): per run and per kernel the model bytes, the measured DRAM bytes, the
// gap in percent and, above 10%, the reasons in plain words.
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

#include "model/recording.h"

namespace fusescope::model {

struct KernelGapView {
    QString kernel;
    double modelBytes = 0.0;
    double measuredBytes = 0.0;
    std::optional<double> percent;
    QStringList reasons;
};

struct RunGapView {
    QString pipeline;
    QString variant;
    double modelBytes = 0.0;
    double measuredBytes = 0.0;
    std::optional<double> percent;
    QStringList reasons;
    QVector<KernelGapView> kernels;
};

// Runs whose kernels carry DRAM counters; the others are left out.
QVector<RunGapView> measurementGaps(const Recording& recording);

}  // namespace fusescope::model
