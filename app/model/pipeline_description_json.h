#pragma once
// A PipelineDescription (kernels/pipelines/pipeline_description.h) as JSON, keys in snake_case:
// what a recording of a run-time pipeline keeps so that it reopens anywhere, and what an
// expression or a learner's kernel is saved as.
#include <QByteArray>
#include <QJsonObject>

#include "core/status.h"
#include "model/json_reader.h"
#include "pipelines/pipeline_description.h"

namespace fusescope::model {

// Longest CUDA source a description may carry, in characters.
inline constexpr qsizetype kMaxCudaSourceLength = qsizetype{1} << 20;

QJsonObject pipelineDescriptionToJson(const PipelineDescription& description);
QByteArray pipelineDescriptionToJsonBytes(const PipelineDescription& description);

// Throws JsonFieldError naming the field. Reads the shape only: makePipelineFromDescription
// checks that the names agree.
PipelineDescription readPipelineDescription(const JsonReader& reader);
Result<PipelineDescription> pipelineDescriptionFromJson(const QByteArray& json);

}  // namespace fusescope::model
