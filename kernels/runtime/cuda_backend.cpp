// The CUDA backend: the registry's kernels on one GPU of the host, chosen once when the backend is
// made (on the thread that owns it), timed with CUDA events on one stream.
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "pipelines/registry.h"
#include "platform/cuda_error.h"
#include "runtime/backend.h"
#include "runtime/cuda_start_hold.h"
#include "runtime/launch_pacing.h"

namespace fusescope {
namespace {

// After a cudaFree the GPU writes the freed memory back in the background, and a kernel timed
// right after runs slower (seen on the H200); this much idle time lets that finish.
constexpr auto kSettleTime = std::chrono::milliseconds(20);

std::string bytesText(std::uint64_t bytes) {
    return std::to_string(bytes) + " bytes";
}

class CudaBackend final : public Backend {
  public:
    static Result<std::unique_ptr<Backend>> create(int deviceIndex) {
        if (Status s = checkCudaDevice(deviceIndex); !s) return s;
        std::unique_ptr<CudaBackend> backend(new CudaBackend());
        if (Status s = backend->initialize(deviceIndex); !s) return s;
        return std::unique_ptr<Backend>(std::move(backend));
    }

    ~CudaBackend() override {
        // Nothing to report to from a destructor; the handles are released either way. Library
        // handles bound to the stream go before it.
        state_ = ExecutionState{};
        for (cudaEvent_t event : events_) (void)cudaEventDestroy(event);
        if (stream_) (void)cudaStreamDestroy(stream_);
    }

    BackendKind kind() const override { return BackendKind::Cuda; }

    DeviceInfo describe() const override {
        DeviceInfo info = device_;
        info.memoryName = "HBM (device memory)";
        info.processorsName = "SMs";
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess) {
            info.freeMemoryBytes = freeBytes;
            info.totalMemoryBytes = totalBytes;
        } else {
            (void)cudaGetLastError();
        }
        return info;
    }

    Result<void*> allocate(std::uint64_t bytes) override {
        void* pointer = nullptr;
        const cudaError_t error = cudaMalloc(&pointer, std::max<std::uint64_t>(bytes, 1));
        if (error == cudaSuccess) return pointer;
        std::string action = "allocating " + bytesText(bytes) + " on the GPU";
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess)
            action += " (" + bytesText(freeBytes) + " free of " + bytesText(totalBytes) + ")";
        return cudaStatus(error, action);
    }

    Status release(void* pointer) override {
        return cudaStatus(cudaFree(pointer), "freeing GPU memory");
    }

    Status upload(void* device, const void* host, std::uint64_t bytes) override {
        return waitFor(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream_),
                       "copying " + bytesText(bytes) + " to the GPU");
    }

    Status download(void* host, const void* device, std::uint64_t bytes) override {
        return waitFor(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream_),
                       "copying " + bytesText(bytes) + " from the GPU");
    }

    Status fill(void* device, unsigned char byte, std::uint64_t bytes) override {
        return waitFor(cudaMemsetAsync(device, byte, bytes, stream_),
                       "filling " + bytesText(bytes) + " of GPU memory");
    }

    Status copy(void* destination, const void* source, std::uint64_t bytes) override {
        return waitFor(
            cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, stream_),
            "copying " + bytesText(bytes) + " within GPU memory");
    }

    Result<std::vector<double>> timeLaunches(std::span<const KernelLaunch> launches,
                                             TimedStart start) override {
        Result<std::vector<double>> times =
            enqueueOneAtATime(launches.size(), launchTimes_.expected(launches))
                ? timeOneAtATime(launches, start)
                : timeBackToBack(launches, start);
        if (times) launchTimes_.remember(launches, *times);
        return times;
    }

    bool chainsCanOverlap() const override { return true; }
    Result<double> timeChain(std::span<const KernelLaunch> launches) override {
        // A chain of long launches is timed one launch at a time, so that a cancel leaves one
        // launch to finish: what a kernel's start overlaps with the previous one's end is
        // microseconds, far below the noise of launches this long (launch_pacing.h).
        if (enqueueOneAtATime(launches.size(), launchTimes_.expected(launches))) {
            Result<std::vector<double>> times = timeOneAtATime(launches, TimedStart::AllEnqueued);
            if (!times) return times.status();
            return std::accumulate(times->begin(), times->end(), 0.0);
        }
        if (Status s = ensureEvents(2); !s) return s;
        const ExecutionTarget where = target();
        if (Status s = hold_.hold(stream_); !s) return s;
        Status enqueued = cudaStatus(cudaEventRecord(events_[0], stream_), "recording an event");
        for (std::size_t k = 0; enqueued && k < launches.size(); ++k)
            enqueued = cancel_.cancelled() ? cancelledStatus() : enqueueNamed(where, launches[k]);
        if (!enqueued) return releasedAfter(enqueued);
        cudaError_t error = cudaEventRecord(events_[1], stream_);
        hold_.release();
        if (error == cudaSuccess) error = cudaStreamSynchronize(stream_);
        if (error != cudaSuccess) return cudaStatus(error, "running " + kernelNames(launches));
        return elapsedMs(events_[0], events_[1], "timing " + kernelNames(launches));
    }

    Result<std::vector<double>> timeRepeats(std::span<const KernelLaunch> launches, int warmups,
                                            int repeats) override {
        if (repeats < 1) return Status(ErrorCode::InvalidArgument, "repeats must be at least 1");
        if (Status s = ensureEvents(2 * static_cast<std::size_t>(repeats)); !s) return s;
        const ExecutionTarget where = target();
        const auto enqueueChain = [&] {
            for (const KernelLaunch& launch : launches)
                if (Status s = enqueueNamed(where, launch); !s) return s;
            return Status::ok();
        };
        Status enqueued;
        for (int i = 0; enqueued && i < warmups; ++i) enqueued = enqueueChain();
        for (std::size_t i = 0; enqueued && i < static_cast<std::size_t>(repeats); ++i) {
            enqueued = cudaStatus(cudaEventRecord(events_[2 * i], stream_), "recording an event");
            if (enqueued) enqueued = enqueueChain();
            if (enqueued)
                enqueued =
                    cudaStatus(cudaEventRecord(events_[2 * i + 1], stream_), "recording an event");
        }
        if (!enqueued) return releasedAfter(enqueued);
        if (Status s = synchronize("running " + kernelNames(launches)); !s) return s;
        std::vector<double> times;
        for (std::size_t i = 0; i < static_cast<std::size_t>(repeats); ++i) {
            Result<double> time =
                elapsedMs(events_[2 * i], events_[2 * i + 1], "timing " + kernelNames(launches));
            if (!time) return time.status();
            times.push_back(*time);
        }
        return times;
    }

    Result<double> timeCopy(void* destination, const void* source, std::uint64_t bytes) override {
        if (Status s = ensureEvents(2); !s) return s;
        if (Status s = hold_.hold(stream_); !s) return s;
        cudaError_t error = cudaEventRecord(events_[0], stream_);
        if (error == cudaSuccess)
            error = cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, stream_);
        if (error == cudaSuccess) error = cudaEventRecord(events_[1], stream_);
        hold_.release();
        if (error == cudaSuccess) error = cudaStreamSynchronize(stream_);
        const std::string action = "timing a copy of " + bytesText(bytes) + " within the GPU";
        if (error != cudaSuccess) return cudaStatus(error, action);
        return elapsedMs(events_[0], events_[1], action);
    }

    Result<KernelExecution*> findExecution(std::string_view key) override {
        return findExecutionIn(catalog_, key, BackendKind::Cuda);
    }

    KernelResources resources(const KernelLaunch& launch) override {
        return launch.execution->resources(target(), launch.call);
    }
    Status supports(const KernelLaunch& launch) override {
        return launch.execution->supports(target(), launch.call);
    }
    std::vector<CompileRequest> compileRequests(const KernelLaunch& launch) override {
        return launch.execution->compileRequests(target(), launch.call);
    }
    Result<bool> choose(const KernelLaunch& launch) override {
        return launch.execution->choose(target(), launch.call);
    }

    void useCancelToken(CancelToken cancel) override { cancel_ = std::move(cancel); }

    Status settle() override {
        if (Status s = cudaStatus(cudaDeviceSynchronize(), "waiting for the GPU"); !s) return s;
        std::this_thread::sleep_for(kSettleTime);
        return Status::ok();
    }

    Status health() override {
        // A failure the runtime has reported is cleared by reporting it; an error that broke the
        // context comes back at every call. So the GPU is unusable only if it fails twice.
        if (cudaDeviceSynchronize() == cudaSuccess) return Status::ok();
        (void)cudaGetLastError();
        return cudaStatus(
            cudaDeviceSynchronize(),
            "checking GPU " + std::to_string(device_.deviceIndex) + " after a failure");
    }

  private:
    CudaBackend() = default;

    Status initialize(int deviceIndex) {
        const std::string gpu = "GPU " + std::to_string(deviceIndex);
        // Once, on the thread that owns this backend: every later call of the thread goes to it.
        if (Status s = cudaStatus(cudaSetDevice(deviceIndex), "selecting " + gpu); !s) return s;
        cudaDeviceProp properties{};
        if (Status s = cudaStatus(cudaGetDeviceProperties(&properties, deviceIndex),
                                  "reading the properties of " + gpu);
            !s)
            return s;
        device_.backend = BackendKind::Cuda;
        device_.deviceIndex = deviceIndex;
        device_.name = properties.name;
        device_.computeCapabilityMajor = properties.major;
        device_.computeCapabilityMinor = properties.minor;
        device_.multiprocessors = properties.multiProcessorCount;
        device_.sharedBytesPerBlockOptIn = properties.sharedMemPerBlockOptin;
        device_.sharedBytesPerMultiprocessor = properties.sharedMemPerMultiprocessor;
        device_.reservedSharedBytesPerBlock = properties.reservedSharedMemPerBlock;
        device_.maxThreadsPerBlock = properties.maxThreadsPerBlock;
        device_.maxThreadsPerMultiprocessor = properties.maxThreadsPerMultiProcessor;
        device_.maxBlocksPerMultiprocessor = properties.maxBlocksPerMultiProcessor;
        device_.registersPerMultiprocessor = properties.regsPerMultiprocessor;
        device_.l2CacheBytes = static_cast<std::uint64_t>(properties.l2CacheSize);
        device_.totalMemoryBytes = properties.totalGlobalMem;
        maxThreadsPerMultiprocessor_ = properties.maxThreadsPerMultiProcessor;
        device_.theoreticalBandwidthGBps = theoreticalBandwidthGBps(deviceIndex);

        int driverVersion = 0;
        int runtimeVersion = 0;
        if (Status s =
                cudaStatus(cudaDriverGetVersion(&driverVersion), "reading the driver version");
            !s)
            return s;
        if (Status s =
                cudaStatus(cudaRuntimeGetVersion(&runtimeVersion), "reading the runtime version");
            !s)
            return s;
        device_.driverVersion = cudaVersionText(driverVersion);
        device_.runtimeVersion = cudaVersionText(runtimeVersion);

        if (Status s = cudaStatus(cudaStreamCreate(&stream_), "creating a CUDA stream"); !s)
            return s;
        return loadKernels();
    }

    // Memory clock (kHz) x bus width (bits) x 2 (double data rate) / 8; the cudaDeviceProp clock
    // fields are gone in CUDA 13. 0 when the device does not say.
    static double theoreticalBandwidthGBps(int deviceIndex) {
        int memoryClockKHz = 0;
        int busWidthBits = 0;
        if (cudaDeviceGetAttribute(&memoryClockKHz, cudaDevAttrMemoryClockRate, deviceIndex) !=
                cudaSuccess ||
            cudaDeviceGetAttribute(&busWidthBits, cudaDevAttrGlobalMemoryBusWidth, deviceIndex) !=
                cudaSuccess) {
            (void)cudaGetLastError();
            return 0.0;
        }
        return static_cast<double>(memoryClockKHz) * 1e3 * busWidthBits * 2.0 / 8.0 / 1e9;
    }

    // Loads every execution once: a build without code for this GPU fails here with a message
    // instead of at the first launch.
    Status loadKernels() {
        const ExecutionTarget where = target();
        for (auto& [key, execution] : catalog_) {
            const Status status = execution->load(where);
            if (status) continue;
            (void)cudaGetLastError();
            return explainMissingImage(status);
        }
        return Status::ok();
    }

    // A missing kernel image means the build has no code for this GPU: say how to rebuild.
    Status explainMissingImage(const Status& status) const {
        const std::string& text = status.message();
        if (text.find("no kernel image") == std::string::npos &&
            text.find("invalid device function") == std::string::npos &&
            text.find("PTX") == std::string::npos)
            return status;
        const std::string capability = std::to_string(device_.computeCapabilityMajor) +
                                       std::to_string(device_.computeCapabilityMinor);
        return Status(ErrorCode::DeviceUnavailable,
                      text + ". This FuseScope has no GPU code for " + device_.name +
                          " (compute capability " + std::to_string(device_.computeCapabilityMajor) +
                          "." + std::to_string(device_.computeCapabilityMinor) +
                          "); rebuild it with -DCMAKE_CUDA_ARCHITECTURES=" + capability);
    }

    ExecutionTarget target() {
        ExecutionTarget where;
        where.backend = BackendKind::Cuda;
        where.stream = stream_;
        where.multiprocessors = device_.multiprocessors;
        where.maxThreadsPerMultiprocessor = maxThreadsPerMultiprocessor_;
        where.state = &state_;
        where.cancel = cancel_;
        return where;
    }

    // Every launch enqueued, then the stream let go: kernels run back to back, and a cancel
    // leaves all of them to finish (short launches only, launch_pacing.h).
    Result<std::vector<double>> timeBackToBack(std::span<const KernelLaunch> launches,
                                               TimedStart start) {
        if (Status s = ensureEvents(launches.size() + 1); !s) return s;
        const ExecutionTarget where = target();
        if (start == TimedStart::AllEnqueued)
            if (Status s = hold_.hold(stream_); !s) return s;
        // Only the event record and the enqueue between two events: host work there would be
        // timed as part of the kernel. Messages are built only on failure.
        for (std::size_t k = 0; k < launches.size(); ++k) {
            // Launches are not queued past a cancel: what is enqueued already still runs.
            if (cancel_.cancelled()) return releasedAfter(cancelledStatus());
            Status enqueued =
                cudaStatus(cudaEventRecord(events_[k], stream_), "recording an event");
            if (enqueued) enqueued = enqueueNamed(where, launches[k]);
            if (!enqueued) return releasedAfter(enqueued);
        }
        cudaError_t error = cudaEventRecord(events_[launches.size()], stream_);
        hold_.release();
        if (error == cudaSuccess) error = cudaStreamSynchronize(stream_);
        if (error != cudaSuccess) return cudaStatus(error, "running " + kernelNames(launches));

        std::vector<double> times;
        for (std::size_t k = 0; k < launches.size(); ++k) {
            Result<double> time =
                elapsedMs(events_[k], events_[k + 1], "timing " + launches[k].call.kernelName);
            if (!time) return time.status();
            times.push_back(*time);
        }
        return times;
    }

    // Each launch held until it is enqueued, as the first of a back-to-back sequence is, and timed
    // between its own events; the next is enqueued once it has finished, so a cancel leaves at
    // most this one to finish. The host's turn between two launches (tens of microseconds) falls
    // outside both kernels' events; it may leave the GPU idle, which only launches long enough
    // for that to be far below their noise meet, and sequences not timed before (a run's
    // checking launch, whose times are not reported).
    Result<std::vector<double>> timeOneAtATime(std::span<const KernelLaunch> launches,
                                               TimedStart start) {
        if (Status s = ensureEvents(2 * launches.size()); !s) return s;
        const ExecutionTarget where = target();
        std::vector<double> times;
        for (std::size_t k = 0; k < launches.size(); ++k) {
            if (cancel_.cancelled()) return cancelledStatus();
            cudaEvent_t begin = events_[2 * k];
            cudaEvent_t end = events_[2 * k + 1];
            if (start == TimedStart::AllEnqueued)
                if (Status s = hold_.hold(stream_); !s) return s;
            Status enqueued = cudaStatus(cudaEventRecord(begin, stream_), "recording an event");
            if (enqueued) enqueued = enqueueNamed(where, launches[k]);
            if (enqueued)
                enqueued = cudaStatus(cudaEventRecord(end, stream_), "recording an event");
            if (!enqueued) return releasedAfter(enqueued);
            hold_.release();
            const std::string& name = launches[k].call.kernelName;
            if (Status s = cudaStatus(cudaEventSynchronize(end), "running " + name); !s) return s;
            Result<double> time = elapsedMs(begin, end, "timing " + name);
            if (!time) return time.status();
            times.push_back(*time);
        }
        return times;
    }

    Status ensureEvents(std::size_t count) {
        // Created on first need and kept until the destructor: no events are created while timing.
        while (events_.size() < count) {
            cudaEvent_t event = nullptr;
            if (Status s = cudaStatus(cudaEventCreate(&event), "creating a CUDA event"); !s)
                return s;
            events_.push_back(event);
        }
        return Status::ok();
    }

    // Named as FuseScope names it, so Nsight Systems and Compute read in the same words.
    static Status enqueueNamed(const ExecutionTarget& where, const KernelLaunch& launch) {
        const std::string range = launch.call.variant + "/" + launch.call.kernelName;
        nvtxRangePushA(range.c_str());
        const Status enqueued = launch.execution->enqueue(where, launch.call);
        nvtxRangePop();
        return enqueued;
    }

    // A failed enqueue still lets the held stream go, and waits for what was enqueued.
    Status releasedAfter(const Status& failure) {
        hold_.release();
        (void)cudaStreamSynchronize(stream_);
        return failure;
    }

    static Result<double> elapsedMs(cudaEvent_t begin, cudaEvent_t end, const std::string& action) {
        float milliseconds = 0.0f;
        if (Status s = cudaStatus(cudaEventElapsedTime(&milliseconds, begin, end), action); !s)
            return s;
        return static_cast<double>(milliseconds);
    }

    // The work just enqueued on the stream (`enqueued`: what enqueueing it returned), waited for;
    // `action` names it in an error.
    Status waitFor(cudaError_t enqueued, const std::string& action) {
        if (Status s = cudaStatus(enqueued, action); !s) return s;
        return synchronize(action);
    }

    Status synchronize(const std::string& action) {
        return cudaStatus(cudaStreamSynchronize(stream_), action);
    }

    static std::string kernelNames(std::span<const KernelLaunch> launches) {
        std::string names;
        for (const KernelLaunch& launch : launches)
            names += (names.empty() ? "" : ", ") + launch.call.kernelName;
        return names;
    }

    DeviceInfo device_;  // everything but the free memory, read once
    int maxThreadsPerMultiprocessor_ = 1;
    cudaStream_t stream_ = nullptr;
    std::vector<cudaEvent_t> events_;
    CudaStartHold hold_;
    CancelToken cancel_;
    LaunchTimesMemory launchTimes_;
    ExecutionCatalog catalog_ = makeCudaExecutions();
    ExecutionState state_;
};

}  // namespace

Result<std::unique_ptr<Backend>> createCudaBackend(int deviceIndex) {
    return CudaBackend::create(deviceIndex);
}

}  // namespace fusescope
