#pragma once
// The tile explorer's values, as plain data with no Qt and no CUDA: a configuration (a problem
// whose tuning holds the tile sizes), the limits it is checked against, its resource report
// before it runs, the reason it is refused, a measured cell, and a whole tile sweep. The worker
// sends these across threads by copy, app/model saves and loads them (tile_sweep_json.h), and
// the explorer's views draw them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipelines/problem.h"
#include "pipelines/tile_spec.h"
#include "runtime/run_settings.h"

namespace fusescope::tiles {

// The limits, launch geometry and refusals are the registry's (pipelines/tile_spec.h): a
// tunable variant declares its own.
using fusescope::DeviceLimits;
using fusescope::LaunchGeometry;
using fusescope::RefusalKind;
using fusescope::TileRefusal;

// One point of the tile space: the pipeline, the variant whose kernel takes the tiles, and the
// problem (dimensions, dtype and tuning: the variant's tiles among them).
struct TileConfiguration {
    std::string pipeline;
    std::string variant;
    Problem problem;

    friend bool operator==(const TileConfiguration&, const TileConfiguration&) = default;
};

std::string refusalKindKey(RefusalKind kind);  // "shared_memory", for files
std::optional<RefusalKind> refusalKindFromKey(const std::string& key);

// What the compiler and the occupancy calculator say about the loaded kernel (live GPU only).
struct CompiledResources {
    bool known = false;
    int registersPerThread = 0;
    int localBytesPerThread = 0;  // spills (and local arrays)
    int staticSharedBytes = 0;
    int maxThreadsPerBlock = 0;  // the kernel's own limit (registers can lower it)
    int blocksPerMultiprocessor = 0;
    double theoreticalOccupancy = 0.0;  // resident warps / the SM's maximum, 0..1
    // How the module was obtained: compiled now, from the memory cache, from the disk cache, or
    // the statically compiled kernel; and what compiling took (0 for cache hits).
    std::string origin;  // "nvrtc", "memory cache", "disk cache", "precompiled"
    double compileMs = 0.0;
    // Which build ran where timing chose between builds (KernelResources::choice), else empty.
    std::string choice;
};

// The report shown before a configuration runs. The model part (geometry, grid words, bytes,
// FLOPs, predicted time) needs no GPU; `compiled` needs the device.
struct ResourceReport {
    TileConfiguration configuration;
    DeviceLimits limits;
    LaunchGeometry launch;
    CompiledResources compiled;
    std::optional<TileRefusal> refusal;
    std::uint64_t modelBytes = 0;  // read + written by the traffic model, re-reads included
    double modelFlops = 0.0;
    // max(bytes / copy roof, FLOPs / compute roof), and which term won ("memory", "compute").
    double predictedMs = 0.0;
    std::string predictedBound;
    int idleMultiprocessors = 0;  // SMs without a block in the first wave
    double waves = 0.0;           // blocks / (SMs x blocks per SM) when blocks per SM is known
    std::string gridWords;        // "32 blocks on 132 SMs: 100 SMs idle"
};

// Median and interquartile range over the repeats of one timing.
struct TimingSpread {
    double medianMs = 0.0;
    double q1Ms = 0.0;
    double q3Ms = 0.0;
    double minMs = 0.0;
    double maxMs = 0.0;
    int repeats = 0;

    friend bool operator==(const TimingSpread&, const TimingSpread&) = default;
};
// From the repeat times (any order); zeros when empty.
TimingSpread spreadOf(std::vector<double> timesMs);
// The interval a timing is compared by: its interquartile range, widened to at least this
// fraction of its median on each side. On the H200 the IQR over 10 repeats of one process was
// about +-0.3% while the same cell's median moved by up to +-2% between 10 sweeps (clocks, L2
// state, allocations): the IQR alone crowned a different winner in 4 of 10 sweeps.
inline constexpr double kTimingNoiseFloor = 0.015;
// Whether two timings cannot be told apart: their intervals (above) overlap.
bool overlaps(const TimingSpread& a, const TimingSpread& b);

// The peer's kernel at one cell: its launch, its compiled registers and spills, its shared
// memory and the blocks an SM the driver's occupancy calculator gives it (0: not known).
struct PeerKernel {
    int threadsPerBlock = 0;
    int registersPerThread = 0;
    int localBytesPerThread = 0;  // spills
    std::uint64_t sharedBytes = 0;
    int blocksPerMultiprocessor = 0;

    friend bool operator==(const PeerKernel&, const PeerKernel&) = default;
};

// One configuration of a sweep: refused (with its reason), or measured.
struct TileCell {
    ResourceReport report;  // report.configuration says which tiles; report.refusal if refused
    bool measured = false;
    TimingSpread time;
    double gbps = 0.0;                 // model bytes / median time
    double tflops = 0.0;               // model FLOPs / median time
    std::uint64_t requestedBytes = 0;  // model bytes (what the kernel asks of the L2)
    std::optional<double> dramBytes;   // from counters; empty when not measured
    bool checkOk = false;
    double checkError = 0.0;
    double checkTolerance = 0.0;
    std::string error;  // why a launch that was not refused failed
    // What limits this cell, most important first: "spills 96 B/thread", "128 blocks on 132
    // SMs", "re-reads 3.1x the production fusion's bytes", "compute bound: 71% of the GEMM roof".
    std::vector<std::string> limiters;
    bool best = false;          // the lowest median of the sweep
    bool tiedWithBest = false;  // its interquartile range overlaps the best one's
    // The peer's time at the same tiles (see PeerTimings); empty where it has none, with
    // peerNote saying why ("Triton refused: out of resource: shared memory ...").
    std::optional<TimingSpread> peerTime;
    std::string peerNote;
    // The peer's compiled kernel at these tiles, as its compiler and the driver report it: what
    // a class compares where the two kernels' times differ. Empty where it was not recorded.
    std::optional<PeerKernel> peerKernel;
};

// Another implementation of the swept kernel timed at each cell's tiles after the sweep (the
// lesson's Triton kernel, by benchmarks/tiles_triton.py): shown beside the sweep's own times,
// never part of its best or its ties.
struct PeerTimings {
    std::string name;    // "Triton 3.6.0"
    std::string source;  // what was timed, where and when, in words

    friend bool operator==(const PeerTimings&, const PeerTimings&) = default;
};

// One axis of the grid: a tuning parameter and the values it takes.
struct TileAxis {
    std::string tuning;  // "block_m"
    std::vector<int> values;

    friend bool operator==(const TileAxis&, const TileAxis&) = default;
};

struct TileSweepRequest {
    TileConfiguration base;  // dimensions, dtype, and the values of tunings no axis varies
    std::vector<TileAxis> axes;
    RunSettings settings;  // of every cell and reference
    Target target;
    // Also time the pipeline's other variants (unfused, production) once, on the same scale.
    bool references = true;

    friend bool operator==(const TileSweepRequest&, const TileSweepRequest&) = default;
};

// The configurations a request spans, the first axis varying slowest.
std::vector<TileConfiguration> configurationsOf(const TileSweepRequest& request);

// Another variant timed in the same run, to put the cells on one scale.
struct ReferenceTiming {
    std::string variant;  // "unfused", "production"
    std::string title;
    TimingSpread time;
    std::uint64_t modelBytes = 0;
    double modelFlops = 0.0;
    bool checkOk = false;
};

struct TileSweep {
    TileSweepRequest request;
    DeviceLimits limits;  // with the measured roofs
    std::string deviceName;
    std::string driverVersion;
    std::string runtimeVersion;
    std::string compilerVersion;  // "NVRTC 13.0", or why there is none
    std::vector<ReferenceTiming> references;
    std::vector<TileCell> cells;  // in configurationsOf(request) order
    double compileWallMs = 0.0;   // compiling (and cache lookups) of every configuration
    double totalWallMs = 0.0;
    int modulesCompiled = 0;          // by NVRTC in this sweep
    int modulesCached = 0;            // found in the memory or disk cache
    bool cancelled = false;           // stopped early: cells holds what was measured
    std::string producer;             // "fusescope-cli 0.1.0"
    std::string created;              // ISO 8601 UTC
    std::optional<PeerTimings> peer;  // empty: no cell has a peer time
};

}  // namespace fusescope::tiles
