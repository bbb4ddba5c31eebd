#include "model/recorded_pipelines.h"

#include <algorithm>

#include "pipelines/described_pipeline.h"
#include "pipelines/runtime_registry.h"

namespace fusescope::model {

QVector<PipelineDescription> descriptionsToSave(const Recording& recording) {
    QVector<PipelineDescription> descriptions = recording.pipelineDescriptions;
    for (const RunRecord& run : recording.runs) {
        const std::string name = run.pipeline.toStdString();
        const bool carried =
            std::any_of(descriptions.begin(), descriptions.end(),
                        [&](const PipelineDescription& known) { return known.name == name; });
        if (carried) continue;
        if (std::optional<PipelineDescription> registered = runtimePipelineDescription(name))
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

}  // namespace fusescope::model
