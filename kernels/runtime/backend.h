#pragma once
// What the runner needs from a place that executes kernels: memory, launches, timing.
// Implementations: the CPU backend (always) and the CUDA backend (when built with CUDA).
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "pipelines/cpu_kernels.h"
#include "pipelines/kernel_execution.h"

namespace fusescope {

const char* backendName(BackendKind kind);  // "cpu", "cuda"

struct DeviceInfo {
    BackendKind backend = BackendKind::Cpu;
    std::string name;  // "NVIDIA H200" or the CPU model
    int computeCapabilityMajor = 0;
    int computeCapabilityMinor = 0;
    int multiprocessors = 0;  // SMs, or CPU threads used
    std::uint64_t l2CacheBytes = 0;
    std::uint64_t totalMemoryBytes = 0;
    std::uint64_t freeMemoryBytes = 0;      // at the time of describe()
    double theoreticalBandwidthGBps = 0.0;  // 0 when unknown (CPU)
    std::string driverVersion;
    std::string runtimeVersion;  // CUDA runtime; on the CPU, the kernels' instruction set
    int deviceIndex = 0;         // the CUDA device's ordinal (several GPUs in one host)
    // What one block may use (GPU only; zeros on the CPU): the tile explorer checks tiles
    // against these.
    std::uint64_t sharedBytesPerBlockOptIn = 0;
    std::uint64_t sharedBytesPerMultiprocessor = 0;
    std::uint64_t reservedSharedBytesPerBlock = 0;
    int maxThreadsPerBlock = 0;
    int maxThreadsPerMultiprocessor = 0;
    int maxBlocksPerMultiprocessor = 0;
    int registersPerMultiprocessor = 0;
    // The backend's own words for where the arrays live and what runs the kernels, for views
    // that draw them: "HBM (device memory)" and "SMs", "memory (RAM)" and "CPU cores".
    std::string memoryName;
    std::string processorsName;
};

// One kernel launch, ready to run: its code and its call.
struct KernelLaunch {
    KernelExecution* execution = nullptr;
    KernelCall call;
};

// When timed work may start. On an idle GPU the first kernel starts as soon as it is enqueued,
// so the host's time to enqueue the rest (a few microseconds a launch) is timed with it; in a
// framework's busy stream or a CUDA graph it is not. Timings hold the GPU until everything is
// enqueued; counter and sampling runs, which must see only the pipeline's kernels, do not.
enum class TimedStart { AsEnqueued, AllEnqueued };

class Backend {
  public:
    virtual ~Backend() = default;

    virtual BackendKind kind() const = 0;
    virtual DeviceInfo describe() const = 0;

    virtual Result<void*> allocate(std::uint64_t bytes) = 0;
    virtual Status release(void* pointer) = 0;
    virtual Status upload(void* device, const void* host, std::uint64_t bytes) = 0;
    virtual Status download(void* host, const void* device, std::uint64_t bytes) = 0;
    virtual Status fill(void* device, unsigned char byte, std::uint64_t bytes) = 0;
    // Copies between two of this backend's buffers. The default goes through the host.
    virtual Status copy(void* destination, const void* source, std::uint64_t bytes);

    // Launches the kernels back to back, waits, and returns each one's time in milliseconds.
    virtual Result<std::vector<double>> timeLaunches(std::span<const KernelLaunch> launches,
                                                     TimedStart start) = 0;
    // Launches the kernels back to back with nothing recorded between them and returns the
    // whole chain's time in milliseconds: what a framework sees, where one kernel may start
    // before the previous has drained (programmatic dependent launch). The chain starts once all
    // of it is enqueued. The default sums the kernels' own times, for backends on which kernels
    // cannot overlap.
    virtual Result<double> timeChain(std::span<const KernelLaunch> launches);
    // A benchmark's timing of a steady stream of work: the chain enqueued `warmups` times
    // untimed, then `repeats` times back to back, each repeat between its own two events, with
    // one wait at the end; each repeat's time in milliseconds. Nothing holds the start and
    // nothing paces the launches, so it is for benchmarks, which nothing cancels. The default
    // times each repeat apart with timeChain.
    virtual Result<std::vector<double>> timeRepeats(std::span<const KernelLaunch> launches,
                                                    int warmups, int repeats);
    // Whether a kernel can start before the previous one in the chain has finished, so that
    // timeChain differs from the sum of timeLaunches (the runner times chains only then).
    virtual bool chainsCanOverlap() const { return false; }
    // Times one device-to-device (or memory) copy of `bytes`: the copy roofline. Like a chain,
    // the copy starts once it is enqueued, so it is timed as the kernels it is compared with.
    virtual Result<double> timeCopy(void* destination, const void* source, std::uint64_t bytes) = 0;

    // The code for an execution key, or the reason this backend has none.
    virtual Result<KernelExecution*> findExecution(std::string_view key) = 0;
    virtual KernelResources resources(const KernelLaunch& launch) = 0;
    // Why the launch cannot run on this backend (KernelExecution::supports).
    virtual Status supports(const KernelLaunch& launch) = 0;
    // What the launch needs compiled at run time (KernelExecution::compileRequests); nothing on
    // backends without run-time compilation.
    virtual std::vector<CompileRequest> compileRequests(const KernelLaunch& launch) {
        (void)launch;
        return {};
    }
    // Lets the launch's code choose between its builds by timing them on the launch's buffers
    // (KernelExecution::choose): whether it launched anything. Nothing on backends without such
    // code.
    virtual Result<bool> choose(const KernelLaunch& launch) {
        (void)launch;
        return false;
    }

    // The host threads a CPU backend runs its kernels and copies on (0: every hardware
    // thread). A one-thread run shows the switch between compute and memory bound well.
    // Device backends ignore it.
    virtual void useHostThreads(int threads) { (void)threads; }

    // What kernels, fills and copies ask to learn that the run was cancelled (CancelToken()
    // puts back one that never is). A CPU backend asks it per block of work and returns
    // ErrorCode::Cancelled; a GPU backend asks it between launches, and enqueues long ones one
    // at a time so that a cancel leaves at most one to finish (launch_pacing.h).
    virtual void useCancelToken(CancelToken cancel) { (void)cancel; }

    // Called after buffers are freed, before the next timing: lets background work settle.
    virtual Status settle() { return Status::ok(); }

    // Whether the backend still answers after a failed job. A GPU fails here when an error left
    // its context unusable (an illegal address in a kernel breaks every later call of the
    // process): its owner then drops the backend and resets the device (BackendSet::resetCuda).
    virtual Status health() { return Status::ok(); }
};

// Availability of the backends on this machine, with the reason when one is not usable.
struct BackendAvailability {
    bool cudaBuilt = false;
    bool cudaUsable = false;
    std::string cudaReason;  // why not usable, in words
};

BackendAvailability probeBackends();
// The names of the CUDA devices of this host, by ordinal ("NVIDIA H200"); fails with the
// reason (as probeBackends() words it) when none is usable.
Result<std::vector<std::string>> cudaDeviceNames();
// Whether CUDA device `deviceIndex` can be chosen: fails with the reason in words ("there is no
// GPU 2: this host has 1 CUDA device, GPU 0") before anything runs on it.
Status checkCudaDevice(int deviceIndex);
std::unique_ptr<Backend> createCpuBackend(int threads = 0);  // 0: all hardware threads
// With a chosen instruction set for its SIMD kernels (tests; the default is the best one).
std::unique_ptr<Backend> createCpuBackend(int threads, CpuInstructionSet instructionSet);
// Fails with the reason when absent. The backend selects `deviceIndex` (cudaSetDevice) on the
// calling thread, which must be the one thread that uses it.
Result<std::unique_ptr<Backend>> createCudaBackend(int deviceIndex = 0);
// Destroys the calling thread's context on GPU `deviceIndex` (cudaDeviceReset), so that the next
// backend made there starts with a fresh one. Every backend of that GPU must be gone first.
Status resetCudaDevice(int deviceIndex);

}  // namespace fusescope
