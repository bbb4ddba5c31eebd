#pragma once
// Turns --backend auto|cuda|cpu into a backend, with the reason for the choice in words.
#include <QString>
#include <memory>

#include "cli/run_options.h"
#include "runtime/backend.h"

namespace fusescope::cli {

struct BackendChoice {
    std::unique_ptr<Backend> backend;
    QString note;  // why this backend, for stderr; empty when the user named it and got it
};

// auto: CUDA when probeBackends() says it is usable, else the CPU backend with the reason.
// cuda: fails with the reason when no GPU is usable (ErrorCode::DeviceUnavailable).
Result<BackendChoice> chooseBackend(BackendRequest request);

}  // namespace fusescope::cli
