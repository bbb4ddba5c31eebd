#pragma once
// A run of an elementwise pipeline: N elements at one vector width, timed `repeats` times after
// `warmup` untimed runs.
#include <cstdint>
#include <string>
#include <utility>

#include "runtime/runner.h"

namespace testsupport {

inline fusescope::RunRequest elementwiseRequest(std::string pipeline, std::uint64_t n,
                                                int vectorWidth, int repeats, int warmup) {
    fusescope::RunRequest request;
    request.pipeline = std::move(pipeline);
    request.problem.dimensions["N"] = n;
    request.problem.tuning["vector"] = vectorWidth;
    request.settings.repeats = repeats;
    request.settings.warmup = warmup;
    return request;
}

}  // namespace testsupport
