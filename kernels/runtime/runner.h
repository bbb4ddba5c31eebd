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
    std::uint64_t n = 1u << 24;
    int vectorWidth = kDefaultVectorWidth;
    int repeats = 20;
    int warmup = 3;
    std::uint32_t seed = 1234;
    int cpuThreads = 0;  // CPU backend: host threads to run on, 0 = every hardware thread
};

// Repeats and warm-up a first run starts with on each backend: a first CPU run of every
// SwiGLU variant at the default N takes a few seconds, a GPU run well under one.
struct RunDefaults {
    int repeats = 20;
    int warmup = 3;
};
RunDefaults runDefaultsFor(BackendKind backend);

// Where a group of numbers came from (issue 3). app/model maps it to its own DataSource.
enum class MeasurementSource {
    TimingModel,  // CUDA-event timing plus the pass model
    CpuBackend,   // executed and timed on the CPU
    Counters      // hardware counters (CUPTI Range Profiler, PM sampling, Activity API)
};

// Per-kernel hardware counters from the counter run (CUPTI Range Profiler, kernel replay).
// Counts as the hardware reports them (doubles: CUPTI evaluates metrics to doubles).
struct KernelCounters {
    double dramBytesRead = 0.0;     // dram__bytes_read.sum
    double dramBytesWritten = 0.0;  // dram__bytes_write.sum
    double sectorsRead = 0.0;       // l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum (32 B each)
    double sectorsWritten = 0.0;    // l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
};

// One PM sample: DRAM bytes moved in [startNs, endNs) on the sampling run's clock
// (ns since the sampling session began; the same clock as TimelineSpan).
struct BandwidthSample {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    double dramBytesRead = 0.0;
    double dramBytesWritten = 0.0;

    double durationSeconds() const { return static_cast<double>(endNs - startNs) * 1e-9; }
    double readBytesPerSecond() const {
        return endNs > startNs ? dramBytesRead / durationSeconds() : 0.0;
    }
    double writeBytesPerSecond() const {
        return endNs > startNs ? dramBytesWritten / durationSeconds() : 0.0;
    }
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
    KernelId id = KernelId::Count;
    double timeMs = 0.0;  // median over repeats
    std::uint64_t modelBytesRead = 0;
    std::uint64_t modelBytesWritten = 0;
    KernelResources resources;
    std::optional<KernelCounters> counters;  // empty when not measured (never zeros instead)
};

struct CheckResult {
    double maxRelativeError = 0.0;
    std::uint64_t unwrittenElements = 0;  // outputs still holding the poison
    // Elements compared against the reference: all of them, or a sample of large outputs.
    std::uint64_t comparedElements = 0;
    bool ok = false;
};

struct VariantResult {
    std::string pipeline;
    std::string variant;
    std::uint64_t n = 0;
    int vectorWidth = 1;
    BackendKind backend = BackendKind::Cpu;
    int passes = 0;
    std::uint64_t modelBytesRead = 0;
    std::uint64_t modelBytesWritten = 0;
    double timeMs = 0.0;  // median of the per-repeat sums over kernels
    std::vector<double> repeatTimesMs;
    std::uint64_t peakBytesInFlight = 0;
    CheckResult check;
    std::vector<KernelResult> kernels;
    std::vector<AllocationEvent> allocations;  // this variant's, on the run's clock

    // Issue 3, filled by measureRun (kernels/measure/measured_run.h); empty otherwise.
    std::vector<TimelineSpan> timeline;    // sampling run: kernels and allocations
    std::vector<BandwidthSample> samples;  // sampling run: PM samples inside this variant's part
    MeasurementSource timingSource = MeasurementSource::TimingModel;
    std::optional<MeasurementSource> countersSource;  // set when kernels[].counters are set
    std::optional<MeasurementSource> samplesSource;   // set when timeline/samples are set

    double effectiveGBps() const;  // model bytes over time
};

struct RooflineResult {
    double timeMs = 0.0;
    std::uint64_t bytesMoved = 0;  // read + written
    double gbps() const { return timeMs > 0 ? bytesMoved / (timeMs * 1e6) : 0.0; }
};

struct RunReport {
    DeviceInfo device;
    RooflineResult roofline;
    std::vector<VariantResult> variants;
    std::vector<AllocationEvent> allocations;  // every event of the run

    // Issue 3: why counters or samples were not measured, in words (empty when they were or
    // were not asked for), and what measuring cost.
    std::string counterStatus;
    double counterRunWallMs = 0.0;   // the counter run (kernel replay), all variants
    double samplingRunWallMs = 0.0;  // the sampling run, all variants
    std::uint64_t samplesDecoded = 0;
    double hostCpuUsPerSample = 0.0;  // CPU time spent decoding, over samplesDecoded
};

// Receives progress on the runner's thread; `cancelled` is polled between repeats.
class RunObserver {
  public:
    virtual ~RunObserver() = default;
    virtual void progress(double fraction, std::string_view stage) { (void)fraction, (void)stage; }
    virtual void variantFinished(const VariantResult& result) { (void)result; }
    virtual bool cancelled() const { return false; }
    // Issue 3, while a sampling run goes: new PM samples and timeline spans of `variant`, in
    // time order, on the runner's thread, a batch at a time.
    virtual void samplesArrived(std::string_view variant, std::span<const BandwidthSample> samples,
                                std::span<const TimelineSpan> spans) {
        (void)variant, (void)samples, (void)spans;
    }
};

// Checks a request against the registry and the device's memory before anything is allocated.
Status validateRequest(const RunRequest& request, const DeviceInfo& device);
// Largest N the variants of the request fit in on this device (by their footprints).
std::uint64_t maxElementsFor(const RunRequest& request, const DeviceInfo& device);

Result<RunReport> runPipeline(Backend& backend, const RunRequest& request, RunObserver& observer);

// Building blocks shared by runPipeline and the measured runs (kernels/measure), so that counter
// and sampling runs launch the same variants the same way.

// The pipeline's inputs, shared by its variants, generated once on the host.
struct HostInputs {
    std::vector<std::string> names;
    std::vector<std::vector<float>> values;

    const std::vector<float>* find(const std::string& name) const;
};

std::vector<const VariantSpec*> selectedVariants(const PipelineSpec& pipeline,
                                                 const RunRequest& request);
HostInputs makeHostInputs(const std::vector<const VariantSpec*>& variants, std::uint64_t n,
                          std::uint32_t seed);

// A variant's buffers, allocated through the tracker: inputs uploaded, outputs and scratch
// poisoned; and its launches, ready to run.
struct PreparedVariant {
    std::map<std::string, TrackedBuffer> buffers;
    std::vector<KernelLaunch> launches;
    std::string outputName;
    std::vector<const float*> hostInputs;  // in declaration order, for the reference check

    // Frees the buffers in reverse order of declaration (the order runPipeline uses).
    Status release(const VariantSpec& variant);
};

// Inputs already on the device, by buffer name: a variant then fills its inputs with a
// device-to-device copy instead of an upload (the sampling run, where a long upload would
// fill the bandwidth timeline with idle time).
using DeviceInputSources = std::map<std::string, const void*>;

Result<PreparedVariant> prepareVariant(Backend& backend, AllocationTracker& tracker,
                                       const VariantSpec& variant, const RunRequest& request,
                                       const HostInputs& inputs,
                                       const DeviceInputSources* deviceSources = nullptr);

}  // namespace fusescope
