#pragma once
// What a variant whose kernel compiles at run time for chosen tiles declares about them: its
// resource model (the launch the tiles make, known without compiling), its refusal (the one
// function that decides whether tiles can run on a GPU, with the reason and the numbers) and how
// its code is chosen while a sweep runs. Its tiles are the pipeline's tunings declared for the
// variant (TuningSpec::variant), with their allowed values. The tile explorer, its views and the
// CLI read these and name no pipeline and no variant.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "pipelines/problem.h"

namespace fusescope {

struct PipelineSpec;

// What tiles are checked against: a live GPU's attributes, or a row of the table of known GPUs
// when the machine has none.
struct DeviceLimits {
    std::string name;     // "NVIDIA H200"
    bool live = false;    // read from the device in this run, not from the table
    int deviceIndex = 0;  // live: the CUDA device's ordinal on its host (several GPUs in one host)
    int computeCapabilityMajor = 0;
    int computeCapabilityMinor = 0;
    int multiprocessors = 0;
    int maxThreadsPerBlock = 1024;
    int maxThreadsPerMultiprocessor = 2048;
    int maxBlocksPerMultiprocessor = 32;
    int registersPerMultiprocessor = 65536;
    int maxRegistersPerThread = 255;
    // Dynamic + static shared memory one block may use after opting in, and what an SM has.
    std::uint64_t sharedBytesPerBlockOptIn = 0;
    std::uint64_t sharedBytesPerMultiprocessor = 0;
    std::uint64_t reservedSharedBytesPerBlock = 0;  // the runtime's own, per resident block
    // The roofs the predicted time is taken against: measured in the run when live, otherwise
    // the spec sheet's numbers (then the *Source strings say "spec sheet").
    double copyBandwidthGBps = 0.0;
    std::string copyBandwidthSource;
    double computeTflops = 0.0;
    std::string computeSource;
};

// The launch a configuration makes, known from the tiles without compiling.
struct LaunchGeometry {
    std::string kernelName;
    int threadsPerBlock = 0;
    std::uint64_t gridX = 0;
    std::uint64_t gridY = 0;
    std::uint64_t blocks = 0;
    std::uint64_t dynamicSharedBytes = 0;
    int pipelineStages = 0;  // shared-memory stages of the copy pipeline (0: not known)
};

// Why a configuration is never launched.
enum class RefusalKind {
    SharedMemory,       // over the per-block limit
    Threads,            // more threads per block than the device allows
    MmaShape,           // tiles the tensor-core fragments cannot cover
    LargerThanProblem,  // a tile beyond the problem where that is invalid
    NotTunable,         // the variant takes no tiles, or a value outside the allowed ones
    NoCompiler,         // NVRTC not found: only the precompiled default tiles run
    CompileFailed,      // NVRTC rejected the source (the log is in the reason)
    LaunchFailed        // the loaded kernel cannot launch (zero blocks fit an SM)
};

struct TileRefusal {
    RefusalKind kind = RefusalKind::NotTunable;
    std::string reason;  // one sentence, with the numbers: "shared memory 256 KiB > 227 KiB"

    friend bool operator==(const TileRefusal&, const TileRefusal&) = default;
};

struct VariantTiles {
    // The resource model: grid, threads per block and shared memory of the kernel for these tiles.
    std::function<LaunchGeometry(const Problem&, const DeviceLimits&)> geometry;
    // Why these tiles (of the named variant of the pipeline) must not launch on a GPU with these
    // limits, or nothing.
    std::function<std::optional<TileRefusal>(const PipelineSpec&, std::string_view variant,
                                             const Problem&, const DeviceLimits&)>
        refusal;
    // Why the CPU backend would not time these tiles apart from the default ones (it runs the
    // same code for every tile), or nothing; empty: it times them.
    std::function<std::optional<std::string>(const Problem&)> cpuRefusal;
    // What the report calls the precompiled kernel that the default tiles run outside a sweep.
    std::string precompiledKernel;
    // Makes every tile, the default ones included, compile at run time (so that every cell of a
    // sweep runs the same code); returns the previous setting. Empty: tiles always compile.
    std::function<bool(bool)> compileEveryTile;
};

// Helpers the variants' refusals share, in the words every refusal uses.
// A tile tuning of the variant that holds none of its declared values.
std::optional<TileRefusal> disallowedTile(const PipelineSpec& pipeline, std::string_view variant,
                                          const Problem& problem);
// More threads per block, or more shared memory per block, than the device allows; `stages`
// ("2 stages") qualifies the shared memory where the kernel chose its depth to fit.
std::optional<TileRefusal> launchRefusal(const LaunchGeometry& geometry, const DeviceLimits& limits,
                                         std::string_view stages = {});

}  // namespace fusescope
