#pragma once
// Which backend runs: the user's choice (auto, cuda, cpu) and the one policy for auto, CUDA where
// a GPU is usable and opens, else the CPU with the reason in words. The CLI, the worker and the
// tools all choose through selectBackend.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "runtime/backend.h"
#include "runtime/run_settings.h"

namespace fusescope {

const char* backendChoiceKey(BackendChoice choice);  // "auto", "cuda", "cpu"
// Case and surrounding spaces do not matter; anything else gives nothing.
std::optional<BackendChoice> backendChoiceFromKey(std::string_view key);

// How a BackendSet finds, opens and resets GPUs: the CUDA runtime by default. Tests hand in a
// stand-in GPU to exercise failures (a broken context, a GPU that disappears) without one.
struct CudaDriver {
    std::function<BackendAvailability()> probe = probeBackends;
    std::function<Status(int)> checkDevice = checkCudaDevice;
    std::function<Result<std::unique_ptr<Backend>>(int)> open = createCudaBackend;
    std::function<Status(int)> reset = resetCudaDevice;
};

// The backends of the thread that owns the device, each created on first use and kept: a CUDA
// backend must be used and destroyed by the thread that created it.
class BackendSet {
  public:
    explicit BackendSet(CudaDriver driver = {}) : driver_(std::move(driver)) {}

    Backend& cpu();
    // Fails with the reason (ErrorCode::DeviceUnavailable or the driver's error) when the GPU
    // cannot be opened; a later call tries again. Asking for another GPU than the one open
    // replaces the backend: one GPU per run, chosen here on the thread that owns them.
    Result<Backend*> cuda(int deviceIndex = 0);
    const CudaDriver& driver() const { return driver_; }

    // After a failed job: ok when no GPU is open or the open one still answers (Backend::health).
    Status cudaHealth();
    // Drops the open GPU's backend and resets that device, so that the next cuda() starts with a
    // fresh context; fails with the reason when the device cannot be reset (it may be gone).
    Status resetCuda();

  private:
    CudaDriver driver_;
    std::unique_ptr<Backend> cpu_;
    std::unique_ptr<Backend> cuda_;
    int cudaDevice_ = 0;
};

struct BackendSelection {
    Backend* backend = nullptr;
    std::string autoNote;  // auto only: which backend it took and why; empty otherwise
};

// cuda: fails with the reason when no GPU is usable or it cannot be opened. `cudaDevice`: the GPU
// the user chose (several in one host); set, it must exist (checkCudaDevice), and auto no longer
// falls back to the CPU. Unset: GPU 0. The CPU backend ignores it.
Result<BackendSelection> selectBackend(BackendChoice choice, BackendSet& backends,
                                       std::optional<int> cudaDevice = std::nullopt);
// The same for a request's target.
Result<BackendSelection> selectBackend(const Target& target, BackendSet& backends);

}  // namespace fusescope
