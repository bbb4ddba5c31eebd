#pragma once
// Runs the variants of one pipeline on a backend: allocate, fill, poison, check against the CPU
// reference, warm up, time, free. Also times the copy roofline in the same run.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "pipelines/registry.h"
#include "runtime/allocation_tracker.h"
#include "runtime/backend.h"
#include "runtime/run_settings.h"

namespace fusescope {

// One limit for every front end (CLI, GUI panel, GUI command line): more repeats than this only
// make a run take hours without making the median better.
inline constexpr int kMaxRepeats = 100000;
inline constexpr int kMaxWarmup = 100000;

// What to run. The run panel and the CLI fill it and it reaches runPipeline unchanged (inside
// RunCommand through the worker), so a new field needs no copying anywhere.
struct RunRequest {
    std::string pipeline;
    std::vector<std::string> variants;  // empty: every variant
    Problem problem;                    // dimensions, dtype and tuning (registry.h)
    RunSettings settings;
    // Where it runs: chosen from this before runPipeline (selectBackend), which gets the backend.
    Target target;
    int cpuThreads = 0;  // CPU backend: host threads to run on, 0 = every hardware thread
    // False: skip the copy and compute roofs (a tile sweep measures them once, not per cell).
    bool roofs = true;
};

// Repeats and warm-up a first run starts with on each backend: a first CPU run of every
// SwiGLU variant at the default N takes a few seconds, a GPU run well under one.
RunSettings runDefaultsFor(BackendKind backend);

// A request for the pipeline's default problem, every variant, at the backend's defaults.
RunRequest defaultRequest(const PipelineSpec& pipeline, BackendKind backend);

// Where a group of numbers came from. app/model maps it to its own DataSource, a view's badge.
enum class MeasurementSource {
    TimingModel,  // CUDA-event timing plus the pass model
    CpuBackend,   // executed and timed on the CPU
    Counters      // hardware counters (CUPTI Range Profiler, PM sampling, Activity API)
};

// The lowest and highest of one count over the launches a counter run counted.
struct CountSpread {
    double low = 0.0;
    double high = 0.0;
    bool operator==(const CountSpread&) const = default;
};

// Per-kernel hardware counters from the counter run (CUPTI Range Profiler, each launch replayed
// from an L2 with nothing dirty in it, as Nsight Compute counts).
// Counts as the hardware reports them (doubles: CUPTI evaluates metrics to doubles).
struct KernelCounters {
    double dramBytesRead = 0.0;     // dram__bytes_read.sum
    double dramBytesWritten = 0.0;  // dram__bytes_write.sum
    // The counters below are each empty where they were not measured: recordings made before
    // they were counted hold the DRAM bytes alone, and views show such a count as missing, not 0.
    std::optional<double> sectorsRead{};  // l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum (32 B)
    std::optional<double> sectorsWritten{};  // l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
    // Sectors the SMs requested from the L2 (lts__t_sectors_srcunit_tex_op_read/write.sum, 32 B
    // each): these include the tensor memory accelerator's loads, which bypass the LSU counters
    // above (cuBLAS on Hopper), so a re-read the L2 absorbs shows as requested but not DRAM.
    std::optional<double> l2SectorsRead{};
    std::optional<double> l2SectorsWritten{};
    // Device kernels the launch started, summed above: a library call may start more than one
    // (cuBLAS adds a split-K reduction kernel at some shapes).
    std::optional<std::uint32_t> deviceKernels{};
    // Where the launch was counted more than once, each time from a clean L2: how many times, and
    // the lowest and highest DRAM and L2 read counts among them (the counts above are then each
    // the median of the launches). Empty after one count, and in recordings made before.
    std::optional<std::uint32_t> countedLaunches{};
    std::optional<CountSpread> dramReadSpread{};
    std::optional<CountSpread> dramWrittenSpread{};
    std::optional<CountSpread> l2SectorsReadSpread{};
};

// Every counter measured and still 0: a launch's sum before its device kernels are added.
inline KernelCounters zeroCounters(std::uint32_t deviceKernels) {
    return {.sectorsRead = 0.0,
            .sectorsWritten = 0.0,
            .l2SectorsRead = 0.0,
            .l2SectorsWritten = 0.0,
            .deviceKernels = deviceKernels};
}

// Adds one device kernel's counts to a launch's; a count the kernel lacks adds nothing.
inline void addCounters(KernelCounters& total, const KernelCounters& part) {
    const auto add = [](std::optional<double>& sum, const std::optional<double>& term) {
        if (term) sum = sum.value_or(0.0) + *term;
    };
    total.dramBytesRead += part.dramBytesRead;
    total.dramBytesWritten += part.dramBytesWritten;
    add(total.sectorsRead, part.sectorsRead);
    add(total.sectorsWritten, part.sectorsWritten);
    add(total.l2SectorsRead, part.l2SectorsRead);
    add(total.l2SectorsWritten, part.l2SectorsWritten);
}

// One PM sample: DRAM throughput over [startNs, endNs) on the sampling run's clock
// (ns since the sampling session began; the same clock as TimelineSpan). It keeps the rates it
// was measured as, which recordings store, so a sample saved and opened again is the same to the
// bit; the bytes follow from them.
struct BandwidthSample {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    double readBytesPerSecond = 0.0;
    double writeBytesPerSecond = 0.0;

    double durationSeconds() const { return static_cast<double>(endNs - startNs) * 1e-9; }
    double dramBytesRead() const { return readBytesPerSecond * durationSeconds(); }
    double dramBytesWritten() const { return writeBytesPerSecond * durationSeconds(); }
};

// A span of the sampling run's timeline (CUPTI Activity API, same clock as the samples):
// a kernel's execution, or a device allocation from its cudaMalloc to its cudaFree.
struct TimelineSpan {
    enum class Kind { Kernel, Allocation };
    Kind kind = Kind::Kernel;
    std::string name;  // kernel name as the driver reports it; buffer name for allocations
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;   // allocations still alive at the end: the session's end
    std::uint64_t bytes = 0;  // allocations only
};

struct KernelResult {
    std::string name;
    double timeMs = 0.0;  // median over repeats
    std::uint64_t modelBytesRead = 0;
    std::uint64_t modelBytesWritten = 0;
    double modelFlops = 0.0;
    KernelResources resources;
    std::optional<KernelCounters> counters{};  // empty when not measured (never zeros instead)
};

struct VariantResult {
    std::string pipeline;
    std::string variant;
    Problem problem;
    BackendKind backend = BackendKind::Cpu;
    // Whole-array sweeps, where the pipeline counts traffic in passes (0 otherwise).
    int passes = 0;
    bool passesCounted = false;
    std::uint64_t modelBytesRead = 0;
    std::uint64_t modelBytesWritten = 0;
    double modelFlops = 0.0;
    // Median over repeats of the chain launched back to back (the kernel's own time for one).
    double timeMs = 0.0;
    std::vector<double> repeatTimesMs;
    // Median over repeats of the kernels' times summed, each timed between its own events: above
    // timeMs by what the kernels overlap when launched back to back.
    double kernelsApartTimeMs = 0.0;
    std::vector<double> kernelsApartTimesMs;  // empty for one kernel
    std::uint64_t peakBytesInFlight = 0;
    CheckResult check;
    // The elements of every output the check covers (the registry's output buffers at the
    // problem); comparedElements of them were compared.
    std::uint64_t outputElements = 0;
    std::vector<KernelResult> kernels;
    std::vector<AllocationEvent> allocations;  // this variant's, on the run's clock

    // Filled by measureRun (kernels/measure/measured_run.h); empty otherwise.
    std::vector<TimelineSpan> timeline;    // sampling run: kernels and allocations
    std::vector<BandwidthSample> samples;  // sampling run: PM samples inside this variant's part
    // Samples the run had before its idle stretches were merged to keep a file small; 0 when
    // `samples` are as measured.
    std::int64_t samplesBeforeThinning = 0;
    MeasurementSource timingSource = MeasurementSource::TimingModel;
    std::optional<MeasurementSource> countersSource{};  // set when kernels[].counters are set
    std::optional<MeasurementSource> samplesSource{};   // set when timeline/samples are set

    double effectiveGBps() const;   // model bytes over time
    double achievedTflops() const;  // model FLOPs over time
};

struct RooflineResult {
    double timeMs = 0.0;
    std::uint64_t bytesMoved = 0;  // read + written
    double gbps() const { return timeMs > 0 ? bytesMoved / (timeMs * 1e6) : 0.0; }
};

// The compute roof: a large library GEMM timed in the same run (median over repeats).
struct ComputeRoofResult {
    double timeMs = 0.0;
    double flops = 0.0;
    std::string description;
    double tflops() const { return timeMs > 0 ? flops / (timeMs * 1e9) : 0.0; }
};

// A variant that was asked for but not run, and why in words ("production cannot run here: ...").
struct VariantNotRun {
    std::string variant;
    std::string reason;
};

struct RunReport {
    DeviceInfo device;
    RooflineResult roofline;
    std::optional<ComputeRoofResult> computeRoof{};  // pipelines that declare one, on a GPU
    std::vector<VariantResult> variants;
    std::vector<AllocationEvent> allocations;  // every event of the run

    // Why counters or samples were not measured, in words (empty when they were or
    // were not asked for), and what measuring cost.
    std::string counterStatus;
    double counterRunWallMs = 0.0;   // the counter run (replayed launches), all variants
    double samplingRunWallMs = 0.0;  // the sampling run, all variants
    std::uint64_t samplesDecoded = 0;
    double hostCpuUsPerSample = 0.0;  // CPU time spent decoding, over samplesDecoded
    // Variants whose code cannot run on this backend for this problem (TF32 where a kernel has
    // no TF32 path on the GPU): left out with the reason, so that the others still run. A run
    // refuses only when none of its variants can run.
    std::vector<VariantNotRun> variantsNotRun;
};

// Receives progress on the runner's thread. `cancelled` is polled between repeats and, through
// cancelToken(), by every thread of a CPU kernel, fill or copy per block of work: it must be
// thread-safe and cheap.
class RunObserver {
  public:
    virtual ~RunObserver() = default;
    virtual void progress(double fraction, std::string_view stage) { (void)fraction, (void)stage; }
    virtual void variantFinished(const VariantResult& result) { (void)result; }
    virtual bool cancelled() const { return false; }
    // While a sampling run goes: new PM samples and timeline spans of `variant`, in
    // time order, on the runner's thread, a batch at a time.
    virtual void samplesArrived(std::string_view variant, std::span<const BandwidthSample> samples,
                                std::span<const TimelineSpan> spans) {
        (void)variant, (void)samples, (void)spans;
    }
};

// A token that asks the observer, which must outlive it.
CancelToken cancelToken(const RunObserver& observer);

// Hands the backend a token of the observer for as long as it lives, and takes it back after.
class CancelTokenInUse {
  public:
    CancelTokenInUse(Backend& backend, const RunObserver& observer);
    ~CancelTokenInUse();
    CancelTokenInUse(const CancelTokenInUse&) = delete;
    CancelTokenInUse& operator=(const CancelTokenInUse&) = delete;

  private:
    Backend& backend_;
};

// The request with what its problem leaves out set to the pipeline's defaults; every entry point
// below completes its request this way first.
RunRequest completedRequest(const RunRequest& request);

// Checks a request against the registry and the device's memory before anything is allocated.
Status validateRequest(const RunRequest& request, const DeviceInfo& device);
// Bytes the request holds allocated at once at its peak: the largest variant's buffers, or the
// copy roofline's two buffers.
std::uint64_t footprintBytes(const RunRequest& request);
// Largest value of the pipeline's size dimension (N, M) at which the request fits on this
// device, the other values kept.
std::uint64_t maxSizeFor(const RunRequest& request, const DeviceInfo& device);

Result<RunReport> runPipeline(Backend& backend, const RunRequest& request, RunObserver& observer);

// Building blocks shared by runPipeline and the measured runs (kernels/measure), so that counter
// and sampling runs launch the same variants the same way.

std::vector<const VariantSpec*> selectedVariants(const PipelineSpec& pipeline,
                                                 const RunRequest& request);
// The inputs of the selected variants, each generated once on the host (incomplete when
// `cancel` was set on the way).
HostBuffers makeHostInputs(const PipelineSpec& pipeline,
                           const std::vector<const VariantSpec*>& variants, const Problem& problem,
                           std::uint32_t seed, const CancelToken& cancel = {});

// A variant's buffers, allocated through the tracker: inputs uploaded, outputs and scratch
// poisoned; and its launches, ready to run.
struct PreparedVariant {
    std::map<std::string, TrackedBuffer> buffers;
    std::vector<KernelSpec> kernels;  // the variant's plan for the problem
    std::vector<KernelLaunch> launches;
    std::string outputName;

    // Frees the buffers in reverse order of declaration (the order runPipeline uses).
    Status release(const VariantSpec& variant);
};

// Inputs already on the device, by buffer name: a variant then fills its inputs with a
// device-to-device copy instead of an upload (the sampling run, where a long upload would
// fill the bandwidth timeline with idle time).
using DeviceInputSources = std::map<std::string, const void*>;

// The variant's kernels for the request's problem with their code on this backend, or the
// reason one cannot run here; nothing is allocated.
Result<std::vector<KernelLaunch>> planLaunches(Backend& backend, const VariantSpec& variant,
                                               const RunRequest& request,
                                               std::vector<KernelSpec>& kernels);

Result<PreparedVariant> prepareVariant(Backend& backend, AllocationTracker& tracker,
                                       const VariantSpec& variant, const RunRequest& request,
                                       const HostBuffers& inputs,
                                       const DeviceInputSources* deviceSources = nullptr);

}  // namespace fusescope
