#pragma once
// The whole-array passes every view shows for a run (the results' Passes column, the memory
// stage's pass counter): counted from the counters where the run measured them, else declared.
#include <optional>

#include "model/recording.h"

namespace fusescope::model {

// None where the pipeline counts bytes, not passes.
inline std::optional<int> shownPasses(const VariantResult& run) {
    return run.passesCounted ? std::optional<int>(run.passes) : std::nullopt;
}

}  // namespace fusescope::model
