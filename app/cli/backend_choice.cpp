#include "cli/backend_choice.h"

namespace fusescope::cli {

Result<BackendChoice> chooseBackend(BackendRequest request) {
    BackendChoice choice;
    if (request == BackendRequest::Cpu) {
        choice.backend = createCpuBackend();
        return choice;
    }
    const BackendAvailability availability = probeBackends();
    const QString reason = QString::fromStdString(availability.cudaReason);
    if (availability.cudaUsable) {
        Result<std::unique_ptr<Backend>> cuda = createCudaBackend();
        if (cuda) {
            choice.backend = std::move(*cuda);
            if (request == BackendRequest::Auto)
                choice.note = QStringLiteral("backend auto: using CUDA (a usable GPU was found)");
            return choice;
        }
        if (request == BackendRequest::Cuda)
            return Status(
                ErrorCode::DeviceUnavailable,
                "--backend cuda: the GPU could not be opened: " + cuda.status().message());
        choice.backend = createCpuBackend();
        choice.note = QStringLiteral(
                          "backend auto: using the CPU backend (the GPU could not be "
                          "opened: %1)")
                          .arg(QString::fromStdString(cuda.status().message()));
        return choice;
    }
    if (request == BackendRequest::Cuda)
        return Status(ErrorCode::DeviceUnavailable, "--backend cuda: " + availability.cudaReason);
    choice.backend = createCpuBackend();
    choice.note =
        QStringLiteral("backend auto: using the CPU backend (CUDA is not usable: %1)").arg(reason);
    return choice;
}

}  // namespace fusescope::cli
