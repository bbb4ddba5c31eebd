#pragma once
// The problems a test goes through for a registry pipeline: its default one and each preset's.
#include <vector>

#include "pipelines/registry.h"

namespace fusescope::testing_support {

inline std::vector<Problem> defaultAndPresetProblems(const PipelineSpec& pipeline) {
    std::vector<Problem> problems{pipeline.defaultProblem()};
    for (const PresetSpec& preset : pipeline.presets)
        problems.push_back(withPreset(pipeline.defaultProblem(), preset));
    return problems;
}

}  // namespace fusescope::testing_support
