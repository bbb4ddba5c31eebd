#pragma once
// The caption every stage frame and export carries: which GPU, problem and data source made it.
#include <QString>

#include "model/recording.h"
#include "model/stage/stage_timeline.h"

namespace fusescope {

struct StageCaptionContext {
    QString deviceName;  // "NVIDIA H200", or the CPU model for the CPU backend
    QString problem;     // "N = 268,435,456 · float32 · vector 4" (model::problemLabel)
    QString dataSource;  // "timing + model", "CPU backend", "replay of a recording", ...
    // The backend's words for where the arrays live and what runs the kernels (empty: the
    // GPU's, "HBM (device memory)" and "SMs").
    QString memoryName;
    QString processorsName;
};

QString stageDataSourceLabel(model::DataSource source);
// The caption context of a recording's run: a replayed recording says so.
StageCaptionContext stageCaptionContext(const model::Recording& recording,
                                        const model::VariantResult& run);
// "NVIDIA H200 · N = 268,435,456 · float32 · vector 4 · timing + model"
QString stageCaptionLine(const StageCaptionContext& context);
// "Scratch 1.234 ms · Fused 0.857 ms · fused is 1.44× faster"
QString stageComparisonLine(const model::StageTimeline& left, const model::StageTimeline* right);

QString formatStageBytes(double bytes);  // "1.07 GB", decimal units
QString formatStageTime(double ms);      // "0.857 ms", "12.3 µs"

}  // namespace fusescope
