#pragma once
// What every request shares, as two plain values: how a measurement is repeated (RunSettings)
// and where it runs (Target). The run, sweep and tile requests embed them, so a request that
// becomes another (a sweep's point, a tile sweep's cell) hands them on whole, in one assignment.
#include <cstdint>
#include <optional>

namespace fusescope {

struct RunSettings {
    int repeats = 20;           // timed runs; the time is their median
    int warmup = 3;             // untimed runs before them
    std::uint32_t seed = 1234;  // of the inputs' random values

    friend bool operator==(const RunSettings&, const RunSettings&) = default;
};

// The user's choice of backend; auto is CUDA where a GPU is usable and opens, else the CPU
// (selectBackend).
enum class BackendChoice { Auto, Cuda, Cpu };

struct Target {
    BackendChoice backend = BackendChoice::Auto;
    // The GPU (several in one host), chosen once per request on the thread that owns the GPUs;
    // unset: GPU 0. A GPU that does not exist is refused with the reason before anything runs.
    std::optional<int> cudaDevice;

    friend bool operator==(const Target&, const Target&) = default;
};

}  // namespace fusescope
