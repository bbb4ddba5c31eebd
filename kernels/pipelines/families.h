#pragma once
// The registry entries of each family; registry.cpp lists them.
#include "pipelines/registry.h"

namespace fusescope {

PipelineSpec makeAffinePipeline();
PipelineSpec makeSwigluPipeline();
PipelineSpec makeMlpPipeline();

}  // namespace fusescope
