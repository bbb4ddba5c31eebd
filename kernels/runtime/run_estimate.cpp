#include "runtime/run_estimate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "pipelines/registry.h"
#include "platform/parallel.h"
#include "runtime/cancel_only_observer.h"

namespace fusescope {
namespace {

// The GEMM the speeds are measured with, by backend: on the CPU large enough to use every
// thread and to stream a weight matrix larger than the caches, small enough to take a tenth of
// a second; on a GPU large enough to fill it.
RunRequest calibrationRequest(BackendKind backend, int cpuThreads) {
    RunRequest request;
    request.pipeline = "mlp";
    request.variants = {"unfused"};
    request.cpuThreads = cpuThreads;
    if (backend == BackendKind::Cpu)
        request.problem.dimensions = {{"M", 16}, {"H", 1024}, {"I", 2048}};
    else
        request.problem.dimensions = {{"M", 4096}, {"H", 4096}, {"I", 4096}};
    return completedRequest(request);
}

double inputBytes(const VariantSpec& variant, const Problem& problem) {
    double bytes = 0.0;
    for (const BufferSpec& buffer : variant.buffers)
        if (buffer.role == BufferRole::Input) bytes += static_cast<double>(buffer.bytes(problem));
    return bytes;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The calibration's one variant (the unfused MLP) and its inputs, made on the host and timed.
struct CalibrationInputs {
    const VariantSpec* variant = nullptr;
    HostBuffers inputs;
    double seconds = 0.0;  // making the inputs
};

Result<CalibrationInputs> calibrationInputs(const RunRequest& request) {
    const PipelineSpec* pipeline = findPipeline(request.pipeline);
    if (!pipeline) return Status(ErrorCode::InvalidArgument, "no MLP pipeline to calibrate with");
    const std::vector<const VariantSpec*> variants = selectedVariants(*pipeline, request);
    if (variants.empty()) return Status(ErrorCode::InvalidArgument, "no unfused MLP variant");
    CalibrationInputs made;
    made.variant = variants.front();
    const auto start = std::chrono::steady_clock::now();
    made.inputs = makeHostInputs(*pipeline, variants, request.problem, request.seed, CancelToken());
    made.seconds = secondsSince(start);
    return made;
}

// The calibration variant prepared for `request`, its first `launchCount` launches (or all
// there are) timed `rounds` times back to back, then released.
struct TimedCalibration {
    CalibrationInputs made;
    double firstKernelFlops = 0.0;
    std::vector<std::vector<double>> rounds;  // a round's time of each launch, ms
};

Result<TimedCalibration> timeCalibration(Backend& backend, const RunRequest& request,
                                         std::size_t launchCount, int rounds) {
    Result<CalibrationInputs> made = calibrationInputs(request);
    if (!made) return made.status();
    AllocationTracker tracker(backend);
    Result<PreparedVariant> prepared =
        prepareVariant(backend, tracker, *made->variant, request, made->inputs);
    if (!prepared) return prepared.status();
    const std::span<const KernelLaunch> launches(prepared->launches.data(),
                                                 std::min(launchCount, prepared->launches.size()));
    TimedCalibration timed;
    for (int r = 0; r < rounds; ++r) {
        Result<std::vector<double>> times = backend.timeLaunches(launches, TimedStart::AllEnqueued);
        if (!times) return times.status();
        timed.rounds.push_back(std::move(*times));
    }
    if (Status s = prepared->release(*made->variant); !s) return s;
    timed.firstKernelFlops = prepared->kernels.front().traffic.flops;
    timed.made = std::move(*made);
    return timed;
}

struct GemmCalibration {
    double flopsPerSecond = 0.0;
    double inputBytesPerSecond = 0.0;
};

Result<GemmCalibration> measureGemm(Backend& backend, int cpuThreads) {
    const RunRequest request = calibrationRequest(backend.kind(), cpuThreads);
    Result<TimedCalibration> timed = timeCalibration(backend, request, 1, 3);
    if (!timed) return timed.status();
    double best = 0.0;
    // The first round warms the caches and the allocator.
    for (std::size_t r = 1; r < timed->rounds.size(); ++r)
        best = best == 0.0 ? timed->rounds[r].front() : std::min(best, timed->rounds[r].front());
    if (best <= 0.0) return Status(ErrorCode::DeviceError, "the calibration GEMM took no time");
    GemmCalibration calibration;
    calibration.flopsPerSecond = timed->firstKernelFlops / (best * 1e-3);
    if (timed->made.seconds > 0.0)
        calibration.inputBytesPerSecond =
            inputBytes(*timed->made.variant, request.problem) / timed->made.seconds;
    return calibration;
}

struct CopyCalibration {
    double bytesPerSecond = 0.0;
    double freshBytesPerSecond = 0.0;
};

Result<CopyCalibration> measureCopy(Backend& backend) {
    const std::uint64_t bytes =
        backend.kind() == BackendKind::Cpu ? (std::uint64_t{64} << 20) : (std::uint64_t{1} << 30);
    AllocationTracker tracker(backend);
    Result<TrackedBuffer> source = tracker.allocate("calibration source", bytes);
    if (!source) return source.status();
    Result<TrackedBuffer> destination = tracker.allocate("calibration destination", bytes);
    if (!destination) return destination.status();
    // The first fill of a new buffer pays for its first touch, as a run's buffers do.
    const auto firstTouch = std::chrono::steady_clock::now();
    if (Status s = backend.fill(source->data(), 0x3c, bytes); !s) return s;
    const double touching = secondsSince(firstTouch);
    if (Status s = backend.fill(destination->data(), 0, bytes); !s) return s;
    double best = 0.0;
    for (int r = 0; r < 3; ++r) {
        Result<double> time = backend.timeCopy(destination->data(), source->data(), bytes);
        if (!time) return time.status();
        best = r == 0 ? *time : std::min(best, *time);
    }
    if (best <= 0.0) return Status(ErrorCode::DeviceError, "the calibration copy took no time");
    // Freeing gives the pages back (unmapping a CPU's large buffers), once per buffer as well.
    const auto freeing = std::chrono::steady_clock::now();
    if (Status s = destination->reset(); !s) return s;
    if (Status s = source->reset(); !s) return s;
    const double releasing = secondsSince(freeing) / 2.0;
    CopyCalibration calibration;
    calibration.bytesPerSecond = 2.0 * static_cast<double>(bytes) / (best * 1e-3);
    if (touching + releasing > 0.0)
        calibration.freshBytesPerSecond = static_cast<double>(bytes) / (touching + releasing);
    return calibration;
}

// What a kernel costs however little it does (threads started, operands converted): the
// unfused MLP's kernels at a tiny shape, per kernel.
Result<double> measureLaunchSeconds(Backend& backend, int cpuThreads) {
    RunRequest request = calibrationRequest(backend.kind(), cpuThreads);
    request.problem.dimensions = {{"M", 1}, {"H", 64}, {"I", 64}};
    Result<TimedCalibration> timed =
        timeCalibration(backend, request, std::numeric_limits<std::size_t>::max(), 5);
    if (!timed) return timed.status();
    std::vector<double> times;
    for (const std::vector<double>& round : timed->rounds) {
        double sum = 0.0;
        for (double t : round) sum += t;
        times.push_back(sum / static_cast<double>(round.size()));
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2] * 1e-3;
}

// What a parallel loop costs per thread it starts and joins, with nothing to do: kernels large
// enough to use every thread pay it at each launch, and more threads pay more.
double measureThreadStartSeconds(int threads) {
    if (threads <= 1) return 0.0;
    constexpr int kLoops = 20;
    const std::uint64_t everyThread = std::uint64_t{1} << 40;  // enough work for any count
    const int started = threadsForWork(everyThread, threads);
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < kLoops; ++r)
        parallelFor(everyThread, threads, [](std::uint64_t, std::uint64_t) {});
    return secondsSince(start) / (kLoops * started);
}

// Units of work of a kernel as parallel.h counts them: about one multiply-add or byte moved.
std::uint64_t kernelWork(const KernelSpec& kernel) {
    const double bytes = static_cast<double>(kernel.traffic.bytesRead()) +
                         static_cast<double>(kernel.traffic.bytesWritten());
    return static_cast<std::uint64_t>(std::min(std::max(kernel.traffic.flops / 2.0, bytes), 1e18));
}

}  // namespace

Result<MachineSpeeds> measureSpeeds(Backend& backend, int cpuThreads, const RunObserver& observer) {
    backend.useHostThreads(cpuThreads);
    const CancelTokenInUse cancelInLaunches(backend, observer);
    const Status cancelled(ErrorCode::Cancelled, "the calibration was cancelled");
    MachineSpeeds speeds;
    Result<GemmCalibration> gemm = measureGemm(backend, cpuThreads);
    if (!gemm) return gemm.status();
    if (observer.cancelled()) return cancelled;
    Result<CopyCalibration> copy = measureCopy(backend);
    if (!copy) return copy.status();
    if (observer.cancelled()) return cancelled;
    Result<double> launch = measureLaunchSeconds(backend, cpuThreads);
    if (!launch) return launch.status();
    if (observer.cancelled()) return cancelled;
    speeds.flopsPerSecond = gemm->flopsPerSecond;
    speeds.inputBytesPerSecond = gemm->inputBytesPerSecond;
    speeds.bytesPerSecond = copy->bytesPerSecond;
    speeds.freshBytesPerSecond = copy->freshBytesPerSecond;
    speeds.secondsPerLaunch = *launch;
    if (backend.kind() == BackendKind::Cpu) {
        speeds.threads = cpuThreads > 0 ? cpuThreads : hardwareThreads();
        speeds.secondsPerThreadStart = measureThreadStartSeconds(speeds.threads);
    }
    // A tiny run, timed whole: what it takes beyond the estimate so far is the fixed cost of a
    // variant's run on this machine.
    RunRequest tiny = calibrationRequest(backend.kind(), cpuThreads);
    tiny.problem.dimensions = {{"M", 1}, {"H", 64}, {"I", 64}};
    tiny.variants.clear();  // every variant: their fixed costs differ, the mean is charged
    tiny.repeats = 1;
    tiny.warmup = 0;
    tiny.roofs = false;
    // Only the cancel reaches the tiny run's observer: its progress is not the caller's.
    CancelOnlyObserver<RunObserver> quiet(observer);
    const auto start = std::chrono::steady_clock::now();
    Result<RunReport> ran = runPipeline(backend, tiny, quiet);
    if (!ran) return ran.status();
    const PipelineSpec* pipeline = findPipeline(tiny.pipeline);
    const double variants =
        pipeline ? static_cast<double>(std::max<std::size_t>(
                       selectedVariants(*pipeline, completedRequest(tiny)).size(), 1))
                 : 1.0;
    speeds.secondsPerVariant =
        std::max(0.0, secondsSince(start) - estimateRunSeconds(tiny, speeds)) / variants;
    return speeds;
}

double estimateRunSeconds(const RunRequest& given, const MachineSpeeds& speeds) {
    const RunRequest request = completedRequest(given);
    const PipelineSpec* pipeline = findPipeline(request.pipeline);
    if (!pipeline || speeds.flopsPerSecond <= 0.0 || speeds.bytesPerSecond <= 0.0) return 0.0;
    // The checked run, the warm-up runs and the timed repeats; the reference check costs at most
    // about one more run (the MLP's checks a few rows in double, the elementwise a sample).
    const double runs = 2.0 + request.warmup + request.repeats;
    const double fresh =
        speeds.freshBytesPerSecond > 0.0 ? speeds.freshBytesPerSecond : speeds.bytesPerSecond;
    double seconds = 0.0;
    for (const VariantSpec* variant : selectedVariants(*pipeline, request)) {
        double once = 0.0;
        for (const KernelSpec& kernel : variant->kernelsFor(request.problem)) {
            const double bytes = static_cast<double>(kernel.traffic.bytesRead()) +
                                 static_cast<double>(kernel.traffic.bytesWritten());
            const int threads = threadsForWork(kernelWork(kernel), speeds.threads);
            once += std::max(kernel.traffic.flops / speeds.flopsPerSecond,
                             bytes / speeds.bytesPerSecond) +
                    speeds.secondsPerLaunch +
                    (threads > 1 ? threads * speeds.secondsPerThreadStart : 0.0);
        }
        // Its buffers are allocated, inputs uploaded and the rest poisoned first: each written
        // once into new memory, inputs also read.
        double buffers = 0.0;
        for (const BufferSpec& buffer : variant->buffers)
            buffers += static_cast<double>(buffer.bytes(request.problem));
        seconds += speeds.secondsPerVariant + runs * once + buffers / fresh +
                   inputBytes(*variant, request.problem) / speeds.bytesPerSecond;
    }
    // The inputs are made once on the host, for the variant that takes the most.
    double inputs = 0.0;
    for (const VariantSpec* variant : selectedVariants(*pipeline, request))
        inputs = std::max(inputs, inputBytes(*variant, request.problem));
    seconds += inputs / (speeds.inputBytesPerSecond > 0.0 ? speeds.inputBytesPerSecond
                                                          : speeds.bytesPerSecond);
    if (request.roofs && pipeline->rooflineBytes) {
        // Two new buffers (a quarter of a gigabyte each for the MLP), touched first by the
        // source's fill and the first copy, then freed: on a CPU this outweighs the copies.
        const double bytes = static_cast<double>(pipeline->rooflineBytes(request.problem));
        seconds += 2.0 * bytes / fresh +
                   (request.warmup + request.repeats) * 2.0 * bytes / speeds.bytesPerSecond;
    }
    return seconds;
}

std::string describeDuration(double seconds) {
    if (seconds < 1.0) return "under a second";
    if (seconds < 90.0)
        return "about " + std::to_string(static_cast<int>(std::lround(seconds))) + " s";
    const double minutes = seconds / 60.0;
    if (minutes < 90.0)
        return "about " + std::to_string(static_cast<int>(std::lround(minutes))) + " minutes";
    const double hours = minutes / 60.0;
    if (hours < 48.0)
        return "about " + std::to_string(static_cast<int>(std::lround(hours))) + " hours";
    return "about " + std::to_string(static_cast<int>(std::lround(hours / 24.0))) + " days";
}

}  // namespace fusescope
