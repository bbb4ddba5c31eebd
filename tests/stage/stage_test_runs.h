#pragma once
// Runs for the stage tests: synthetic records with chosen times, and real CPU-backend runs
// converted by the model (runPipeline -> RunReport -> Recording).
#include <QString>
#include <QStringList>

#include "model/recording.h"

namespace fusescope::stagetest {

// A run record of `variant` with the registry's kernels, each taking kernelMs (no device timeline).
model::VariantResult syntheticRun(const QString& pipeline, const QString& variant, quint64 n,
                                  double kernelMs);

// Runs the variants on the CPU backend; fails the calling test (returns an empty recording)
// when the run fails.
model::Recording cpuRecording(const QString& pipeline, const QStringList& variants, quint64 n);

}  // namespace fusescope::stagetest
