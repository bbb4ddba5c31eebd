#include "runtime/backend_selection.h"

#include <algorithm>
#include <cctype>

namespace fusescope {

namespace {

struct ChoiceKey {
    BackendChoice choice;
    const char* key;
};
constexpr ChoiceKey kChoiceKeys[] = {
    {BackendChoice::Auto, "auto"}, {BackendChoice::Cuda, "cuda"}, {BackendChoice::Cpu, "cpu"}};

}  // namespace

const char* backendChoiceKey(BackendChoice choice) {
    for (const ChoiceKey& entry : kChoiceKeys)
        if (entry.choice == choice) return entry.key;
    return "auto";
}

std::optional<BackendChoice> backendChoiceFromKey(std::string_view key) {
    const auto first = key.find_first_not_of(' ');
    if (first == std::string_view::npos) return std::nullopt;
    key = key.substr(first, key.find_last_not_of(' ') - first + 1);
    std::string lower(key);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const ChoiceKey& entry : kChoiceKeys)
        if (lower == entry.key) return entry.choice;
    return std::nullopt;
}

Backend& BackendSet::cpu() {
    if (!cpu_) cpu_ = createCpuBackend();
    return *cpu_;
}

Result<Backend*> BackendSet::cuda(int deviceIndex) {
    if (cuda_ && cudaDevice_ != deviceIndex) cuda_.reset();
    if (!cuda_) {
        Result<std::unique_ptr<Backend>> created = driver_.open(deviceIndex);
        if (!created) return created.status();
        cuda_ = std::move(*created);
        cudaDevice_ = deviceIndex;
    }
    return cuda_.get();
}

Status BackendSet::cudaHealth() {
    return cuda_ ? cuda_->health() : Status::ok();
}

Status BackendSet::resetCuda() {
    // The backend's stream and events belong to the context the reset destroys: release them
    // first (their calls fail quietly on a broken context).
    cuda_.reset();
    return driver_.reset(cudaDevice_);
}

Result<BackendSelection> selectBackend(BackendChoice choice, BackendSet& backends,
                                       std::optional<int> cudaDevice) {
    if (choice == BackendChoice::Cpu) return BackendSelection{&backends.cpu(), {}};
    if (cudaDevice) {
        // A GPU the user named: run there or say why not, never quietly elsewhere.
        if (Status s = backends.driver().checkDevice(*cudaDevice); !s) return s;
        Result<Backend*> chosen = backends.cuda(*cudaDevice);
        if (!chosen)
            return Status(ErrorCode::DeviceUnavailable,
                          "GPU " + std::to_string(*cudaDevice) +
                              " could not be opened: " + chosen.status().message());
        if (choice == BackendChoice::Cuda) return BackendSelection{*chosen, {}};
        return BackendSelection{*chosen, "backend auto: using CUDA on GPU " +
                                             std::to_string(*cudaDevice) + " (as chosen)"};
    }
    const BackendAvailability availability = backends.driver().probe();
    if (!availability.cudaUsable) {
        if (choice == BackendChoice::Cuda)
            return Status(ErrorCode::DeviceUnavailable, availability.cudaReason);
        return BackendSelection{&backends.cpu(),
                                "backend auto: using the CPU backend (CUDA is not usable: " +
                                    availability.cudaReason + ")"};
    }
    Result<Backend*> cuda = backends.cuda();
    if (cuda) {
        if (choice == BackendChoice::Cuda) return BackendSelection{*cuda, {}};
        return BackendSelection{*cuda, "backend auto: using CUDA (a usable GPU was found)"};
    }
    if (choice == BackendChoice::Cuda)
        return Status(ErrorCode::DeviceUnavailable,
                      "the GPU could not be opened: " + cuda.status().message());
    return BackendSelection{&backends.cpu(),
                            "backend auto: using the CPU backend (the GPU could not be opened: " +
                                cuda.status().message() + ")"};
}

Result<BackendSelection> selectBackend(const Target& target, BackendSet& backends) {
    return selectBackend(target.backend, backends, target.cudaDevice);
}

}  // namespace fusescope
