#pragma once
// Runs one variant of a registry pipeline once on a backend, as every run does (the request
// validated, then the runner's planLaunches and prepareVariant: buffers allocated, inputs
// uploaded, outputs and scratch poisoned), on inputs a test made, and returns the output's bytes.
#include <cstdint>
#include <vector>

#include "runtime/allocation_tracker.h"
#include "runtime/runner.h"

namespace fusescope::testing_support {

inline Result<std::vector<unsigned char>> runVariantOnce(Backend& backend,
                                                         const RunRequest& request,
                                                         const HostBuffers& inputs) {
    const PipelineSpec* pipeline = findPipeline(request.pipeline);
    if (!pipeline || request.variants.size() != 1)
        return Status(ErrorCode::InvalidArgument, "one variant of a registered pipeline");
    const VariantSpec* variant = findVariant(*pipeline, request.variants.front());
    if (!variant) return Status(ErrorCode::InvalidArgument, "no variant " + request.variants[0]);
    if (Status s = validateRequest(request, backend.describe()); !s) return s;
    AllocationTracker tracker(backend);
    Result<PreparedVariant> prepared = prepareVariant(backend, tracker, *variant, request, inputs);
    if (!prepared) return prepared.status();
    if (Result<std::vector<double>> ran =
            backend.timeLaunches(prepared->launches, TimedStart::AsEnqueued);
        !ran)
        return ran.status();
    const TrackedBuffer& output = prepared->buffers.at(prepared->outputName);
    std::vector<unsigned char> bytes(output.bytes());
    if (Status s = backend.download(bytes.data(), output.data(), bytes.size()); !s) return s;
    if (Status s = prepared->release(*variant); !s) return s;
    return bytes;
}

}  // namespace fusescope::testing_support
