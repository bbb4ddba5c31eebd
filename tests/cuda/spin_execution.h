#pragma once
// A test kernel that takes as long as it is told, and counts on the host when it starts and
// when it finishes: it shows which launches ran after a cancel. No CUDA headers here.
#include <memory>

#include "core/status.h"
#include "pipelines/kernel_execution.h"

namespace fusescope::testing_support {

// Two counters in mapped, pinned host memory that the spin kernel increments.
class SpinCounters {
  public:
    static Result<std::unique_ptr<SpinCounters>> create();
    ~SpinCounters();
    SpinCounters(const SpinCounters&) = delete;
    SpinCounters& operator=(const SpinCounters&) = delete;

    unsigned started() const;
    unsigned finished() const;
    void reset();
    void* device() const { return device_; }  // the spin kernel's one buffer

  private:
    SpinCounters() = default;
    unsigned* host_ = nullptr;  // [0] started, [1] finished
    void* device_ = nullptr;
};

// One block of one thread that counts its start, spins for the problem's "spin_us"
// microseconds on the GPU's clock, and counts its end.
std::unique_ptr<KernelExecution> makeSpinExecution();

}  // namespace fusescope::testing_support
