#pragma once
// The pipelines defined at run time that a recording's runs name travel with it as descriptions
// (pipelines/pipeline_description.h), so that it reopens where they were never defined.
#include "core/status.h"
#include "model/recording.h"

namespace fusescope::model {

// The recording's own descriptions, then the registry's description of each run-time pipeline a
// run names that the recording lacks.
QVector<PipelineDescription> descriptionsToSave(const Recording& recording);
// Registers each description (registerDescribedPipeline): what opening a recording does. Fails,
// naming the pipeline, on a description that cannot be registered (a built-in's name).
Status registerRecordedPipelines(const Recording& recording);
// Opening a recording (File > Open, --open, compare, a lesson step that shows it): loadRecording,
// then registerRecordedPipelines, so that every view finds the pipelines its runs name. Listing
// and checking files only read them (loadRecording).
Result<Recording> openRecording(const QString& path);

}  // namespace fusescope::model
