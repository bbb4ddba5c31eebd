#pragma once
// A learner's kernel (the Lab view's editor, `fusescope-cli run --kernel-file`): compiled by NVRTC
// from source the program has never seen, then launched on float32 buffers of N elements each.
// The caller runs this in a process of its own: a learner's kernel may read out of bounds or
// never end, and the caller's watchdog (the window's time limit) kills the process.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/cancel_token.h"
#include "core/status.h"
#include "platform/runtime_compiler.h"
#include "runtime/run_settings.h"

namespace fusescope {

// The GPU's architecture ("sm_90"), or "sm_90" where there is no GPU: NVRTC compiles without
// one, so a compile error shows on any machine with the toolkit.
std::string learnerArchitecture();

// The cubin of `source`, compiled by NVRTC with the architecture above; `log` gets the
// compiler's messages (errors and warnings) either way.
Result<CompiledModule> compileLearnerKernel(const std::string& fileName, const std::string& source,
                                            std::string& log);

struct LearnerBufferData {
    std::string name;
    bool input = false;         // copied from `values`; others are poisoned (kPoisonByte)
    bool copiedBack = false;    // the output, read back after the run
    std::vector<float> values;  // inputs: N values; after the run, the copied-back buffers
};

struct LearnerLaunch {
    std::vector<unsigned char> cubin;
    std::string entry;
    std::uint64_t n = 0;
    std::vector<LearnerBufferData> buffers;  // in the kernel's parameter order; N follows them
    RunSettings settings;  // warm-up and repeats (the caller made the inputs with its seed)
    double timeLimitSeconds = 10.0;  // per launch: past it the launch counts as hung
    // Called once after the timed repeats, the buffers still there: `launchOnce` launches the
    // kernel once more and waits for it (time limit and cancel as above). Counters are measured
    // through it; its error ends the run.
    std::function<Status(const std::function<Status()>& launchOnce)> afterTiming;
    // Set where a launch was given up (past the time limit, or cancelled) while the GPU still
    // runs it: nothing more on this device finishes, a free included, until the process ends.
    bool leftRunning = false;
};

// An allocation or free of one of the buffers (host clock, ns since the run began).
struct LearnerAllocation {
    std::string buffer;
    bool isAllocation = true;
    std::uint64_t bytes = 0;
    std::int64_t timeNs = 0;
    std::uint64_t inFlightAfter = 0;
};

struct LearnerTiming {
    std::vector<double> repeatTimesMs;
    double medianMs = 0.0;
    int blockSize = 0;
    int gridSize = 0;
    std::uint64_t peakBytesInFlight = 0;  // the buffers, all allocated at once
    std::vector<LearnerAllocation> allocations;
};

// Allocates the buffers, launches `entry` (grid-stride: enough blocks to fill the GPU), times the
// repeats and copies the copiedBack buffers into `launch.buffers`. An illegal address or a launch
// past the time limit comes back as the error, in words.
Result<LearnerTiming> runLearnerKernel(LearnerLaunch& launch, const CancelToken& cancel);

}  // namespace fusescope
