#include "model/recorded_pipelines.h"

#include <algorithm>

#include "model/recording_json.h"
#include "pipelines/described_pipeline.h"
#include "pipelines/runtime_registry.h"

namespace fusescope::model {

namespace {

// A built-in family's extension is carried only by a recording with a run of an added variant.
bool describesRun(const PipelineDescription& description, const VariantResult& run) {
    if (!description.extendsBuiltIn) return true;
    const std::string variant = run.variant;
    return std::any_of(description.variants.begin(), description.variants.end(),
                       [&](const DescribedVariant& added) { return added.name == variant; });
}

}  // namespace

QVector<PipelineDescription> descriptionsToSave(const Recording& recording) {
    QVector<PipelineDescription> descriptions = recording.pipelineDescriptions;
    for (const VariantResult& run : recording.runs) {
        const std::string name = run.pipeline;
        const bool carried =
            std::any_of(descriptions.begin(), descriptions.end(),
                        [&](const PipelineDescription& known) { return known.name == name; });
        if (carried) continue;
        if (std::optional<PipelineDescription> registered = runtimePipelineDescription(name);
            registered && describesRun(*registered, run))
            descriptions.push_back(std::move(*registered));
    }
    return descriptions;
}

Status registerRecordedPipelines(const Recording& recording) {
    for (const PipelineDescription& description : recording.pipelineDescriptions)
        if (Result<const PipelineSpec*> registered = registerDescribedPipeline(description);
            !registered)
            return registered.status();
    return Status::ok();
}

Result<Recording> openRecording(const QString& path) {
    Result<Recording> recording = loadRecording(path);
    if (!recording) return recording;
    if (Status registered = registerRecordedPipelines(*recording); !registered)
        return Status(ErrorCode::InvalidArgument,
                      QStringLiteral("%1: %2")
                          .arg(path, QString::fromStdString(registered.message()))
                          .toStdString());
    return recording;
}

}  // namespace fusescope::model
