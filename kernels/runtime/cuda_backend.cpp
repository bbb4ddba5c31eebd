// The CUDA backend: the registry's kernels on GPU 0, timed with CUDA events on one stream.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "pipelines/cuda_kernels.h"
#include "pipelines/registry.h"
#include "runtime/backend.h"
#include "runtime/cuda_error.h"

namespace fusescope {
namespace {

constexpr int kDevice = 0;
constexpr std::uintptr_t kVectorAlignment = 16;  // float4 loads and stores
// After a cudaFree the GPU writes the freed memory back in the background, and a kernel timed
// right after runs slower (seen on the H200); this much idle time lets that finish.
constexpr auto kSettleTime = std::chrono::milliseconds(20);

std::string bytesText(std::uint64_t bytes) {
    return std::to_string(bytes) + " bytes";
}

// What the backend learns about one kernel and vector width once, when it is created.
struct KernelSlot {
    CudaKernel kernel;
    cudaFuncAttributes attributes{};
    int blocksPerMultiprocessor = 0;  // resident blocks of kCudaBlockSize threads
};

class CudaBackend final : public Backend {
  public:
    static Result<std::unique_ptr<Backend>> create() {
        const BackendAvailability availability = probeBackends();
        if (!availability.cudaUsable)
            return Status(ErrorCode::DeviceUnavailable, availability.cudaReason);
        std::unique_ptr<CudaBackend> backend(new CudaBackend());
        if (Status s = backend->initialize(); !s) return s;
        return std::unique_ptr<Backend>(std::move(backend));
    }

    ~CudaBackend() override {
        // Nothing to report to from a destructor; the handles are released either way.
        for (cudaEvent_t event : events_) (void)cudaEventDestroy(event);
        if (stream_) (void)cudaStreamDestroy(stream_);
    }

    BackendKind kind() const override { return BackendKind::Cuda; }

    DeviceInfo describe() const override {
        DeviceInfo info = device_;
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
        const std::string action = "copying " + bytesText(bytes) + " to the GPU";
        if (Status s = cudaStatus(
                cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream_), action);
            !s)
            return s;
        return synchronize(action);
    }

    Status download(void* host, const void* device, std::uint64_t bytes) override {
        const std::string action = "copying " + bytesText(bytes) + " from the GPU";
        if (Status s = cudaStatus(
                cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream_), action);
            !s)
            return s;
        return synchronize(action);
    }

    Status fill(void* device, unsigned char byte, std::uint64_t bytes) override {
        const std::string action = "filling " + bytesText(bytes) + " of GPU memory";
        if (Status s = cudaStatus(cudaMemsetAsync(device, byte, bytes, stream_), action); !s)
            return s;
        return synchronize(action);
    }

    Status copy(void* destination, const void* source, std::uint64_t bytes) override {
        const std::string action = "copying " + bytesText(bytes) + " within GPU memory";
        if (Status s = cudaStatus(
                cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, stream_),
                action);
            !s)
            return s;
        return synchronize(action);
    }

    Result<std::vector<double>> timeLaunches(std::span<const KernelLaunch> launches) override {
        std::vector<const KernelSlot*> slots;
        for (const KernelLaunch& launch : launches) {
            Result<const KernelSlot*> slot = checkedSlot(launch);
            if (!slot) return slot.status();
            slots.push_back(*slot);
        }
        if (Status s = ensureEvents(launches.size() + 1); !s) return s;

        // Nothing but the event record and the launch between two events: host work there would
        // be timed as part of the kernel. Messages are built only on failure.
        for (std::size_t k = 0; k < launches.size(); ++k) {
            cudaError_t error = cudaEventRecord(events_[k], stream_);
            if (error == cudaSuccess) error = launch(*slots[k], launches[k]);
            if (error != cudaSuccess)
                return cudaStatus(error, std::string("launching ") + slots[k]->kernel.name);
        }
        cudaError_t error = cudaEventRecord(events_[launches.size()], stream_);
        if (error == cudaSuccess) error = cudaStreamSynchronize(stream_);
        if (error != cudaSuccess) return cudaStatus(error, "running " + kernelNames(slots));

        std::vector<double> times;
        for (std::size_t k = 0; k < launches.size(); ++k) {
            float milliseconds = 0.0f;
            if (Status s =
                    cudaStatus(cudaEventElapsedTime(&milliseconds, events_[k], events_[k + 1]),
                               std::string("timing ") + slots[k]->kernel.name);
                !s)
                return s;
            times.push_back(milliseconds);
        }
        return times;
    }

    Result<double> timeCopy(void* destination, const void* source, std::uint64_t bytes) override {
        if (Status s = ensureEvents(2); !s) return s;
        cudaError_t error = cudaEventRecord(events_[0], stream_);
        if (error == cudaSuccess)
            error = cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, stream_);
        if (error == cudaSuccess) error = cudaEventRecord(events_[1], stream_);
        if (error == cudaSuccess) error = cudaStreamSynchronize(stream_);
        float milliseconds = 0.0f;
        if (error == cudaSuccess)
            error = cudaEventElapsedTime(&milliseconds, events_[0], events_[1]);
        if (error != cudaSuccess)
            return cudaStatus(error, "timing a copy of " + bytesText(bytes) + " within the GPU");
        return static_cast<double>(milliseconds);
    }

    KernelResources resources(KernelId id, int vectorWidth, std::uint64_t n) const override {
        const KernelSlot* slot = findSlot(id, vectorWidth);
        if (!slot) return {};
        KernelResources resources;
        resources.known = true;
        resources.registersPerThread = slot->attributes.numRegs;
        resources.sharedBytesPerBlock = static_cast<int>(slot->attributes.sharedSizeBytes);
        resources.localBytesPerThread = static_cast<int>(slot->attributes.localSizeBytes);
        resources.blockSize = kCudaBlockSize;
        resources.gridSize = static_cast<int>(gridSize(*slot, vectorWidth, n));
        resources.theoreticalOccupancy =
            static_cast<double>(slot->blocksPerMultiprocessor * kCudaBlockSize) /
            static_cast<double>(maxThreadsPerMultiprocessor_);
        return resources;
    }

    Status settle() override {
        if (Status s = cudaStatus(cudaDeviceSynchronize(), "waiting for the GPU"); !s) return s;
        std::this_thread::sleep_for(kSettleTime);
        return Status::ok();
    }

  private:
    CudaBackend() = default;

    Status initialize() {
        if (Status s = cudaStatus(cudaSetDevice(kDevice), "selecting GPU 0"); !s) return s;
        cudaDeviceProp properties{};
        if (Status s = cudaStatus(cudaGetDeviceProperties(&properties, kDevice),
                                  "reading the properties of GPU 0");
            !s)
            return s;
        device_.backend = BackendKind::Cuda;
        device_.name = properties.name;
        device_.computeCapabilityMajor = properties.major;
        device_.computeCapabilityMinor = properties.minor;
        device_.multiprocessors = properties.multiProcessorCount;
        device_.l2CacheBytes = static_cast<std::uint64_t>(properties.l2CacheSize);
        device_.totalMemoryBytes = properties.totalGlobalMem;
        maxThreadsPerMultiprocessor_ = properties.maxThreadsPerMultiProcessor;
        device_.theoreticalBandwidthGBps = theoreticalBandwidthGBps();

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
    static double theoreticalBandwidthGBps() {
        int memoryClockKHz = 0;
        int busWidthBits = 0;
        if (cudaDeviceGetAttribute(&memoryClockKHz, cudaDevAttrMemoryClockRate, kDevice) !=
                cudaSuccess ||
            cudaDeviceGetAttribute(&busWidthBits, cudaDevAttrGlobalMemoryBusWidth, kDevice) !=
                cudaSuccess) {
            (void)cudaGetLastError();
            return 0.0;
        }
        return static_cast<double>(memoryClockKHz) * 1e3 * busWidthBits * 2.0 / 8.0 / 1e9;
    }

    // Reads every kernel's attributes and occupancy once: resources() is then a lookup, and a
    // build without code for this GPU fails here with a message instead of at the first launch.
    Status loadKernels() {
        for (int id = 0; id < kKernelIdCount; ++id)
            for (int width : kSupportedVectorWidths) {
                KernelSlot& slot = kernels_[id][vectorWidthIndex(width)];
                slot.kernel = cudaKernel(static_cast<KernelId>(id), width);
                if (!slot.kernel.function || slot.kernel.pointerArgs > kMaxKernelArgs)
                    return Status(ErrorCode::DeviceError,
                                  "the CUDA kernel table has no usable entry for kernel id " +
                                      std::to_string(id) + ", vector width " +
                                      std::to_string(width));
                const std::string action =
                    std::string("loading the CUDA kernel ") + slot.kernel.name;
                const cudaError_t error =
                    cudaFuncGetAttributes(&slot.attributes, slot.kernel.function);
                if (error != cudaSuccess) return kernelLoadFailure(error, action);
                if (Status s = cudaStatus(
                        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                            &slot.blocksPerMultiprocessor, slot.kernel.function, kCudaBlockSize, 0),
                        action);
                    !s)
                    return s;
                if (slot.blocksPerMultiprocessor < 1)
                    return Status(ErrorCode::DeviceError, action + ": it cannot run with " +
                                                              std::to_string(kCudaBlockSize) +
                                                              " threads per block");
            }
        return Status::ok();
    }

    Status kernelLoadFailure(cudaError_t error, const std::string& action) const {
        Status status = cudaStatus(error, action);
        if (error != cudaErrorNoKernelImageForDevice && error != cudaErrorInvalidDeviceFunction &&
            error != cudaErrorUnsupportedPtxVersion)
            return status;
        const std::string capability = std::to_string(device_.computeCapabilityMajor) +
                                       std::to_string(device_.computeCapabilityMinor);
        return Status(ErrorCode::DeviceUnavailable,
                      status.message() + ". This FuseScope has no GPU code for " + device_.name +
                          " (compute capability " + std::to_string(device_.computeCapabilityMajor) +
                          "." + std::to_string(device_.computeCapabilityMinor) +
                          "); rebuild it with -DCMAKE_CUDA_ARCHITECTURES=" + capability);
    }

    const KernelSlot* findSlot(KernelId id, int vectorWidth) const {
        const int index = static_cast<int>(id);
        if (index < 0 || index >= kKernelIdCount || !isSupportedVectorWidth(vectorWidth))
            return nullptr;
        return &kernels_[index][vectorWidthIndex(vectorWidth)];
    }

    // The slot for a launch, after checking what the kernel will dereference.
    Result<const KernelSlot*> checkedSlot(const KernelLaunch& launch) const {
        const KernelSlot* slot = findSlot(launch.id, launch.vectorWidth);
        if (!slot)
            return Status(ErrorCode::InvalidArgument,
                          "no CUDA kernel for kernel id " +
                              std::to_string(static_cast<int>(launch.id)) + " with vector width " +
                              std::to_string(launch.vectorWidth));
        for (int a = 0; a < slot->kernel.pointerArgs; ++a) {
            const auto address = reinterpret_cast<std::uintptr_t>(launch.args[a]);
            if (address == 0)
                return Status(ErrorCode::InvalidArgument, std::string(slot->kernel.name) +
                                                              ": buffer argument " +
                                                              std::to_string(a) + " is null");
            if (launch.vectorWidth > 1 && address % kVectorAlignment != 0)
                return Status(ErrorCode::InvalidArgument,
                              std::string(slot->kernel.name) + ": buffer argument " +
                                  std::to_string(a) +
                                  " is not 16-byte aligned, which 16-byte loads need");
        }
        return slot;
    }

    // Blocks for n elements: at width 4 one thread per float4 group (the grid-stride loops then
    // run once); at width 1, or for a kernel that asks for it (CudaKernel::residentGrid), only
    // the blocks that are resident at its occupancy, and the loops sweep the array. Never more
    // blocks than there are work items.
    unsigned gridSize(const KernelSlot& slot, int vectorWidth, std::uint64_t n) const {
        // Width 4: one thread per float4 group, and the 0-3 tail elements go to the first threads.
        const auto width = static_cast<std::uint64_t>(vectorWidth);
        const std::uint64_t workItems = width > 1 ? std::max(n / width, n % width) : n;
        const std::uint64_t needed = (workItems + kCudaBlockSize - 1) / kCudaBlockSize;
        const std::uint64_t resident =
            static_cast<std::uint64_t>(slot.blocksPerMultiprocessor) * device_.multiprocessors;
        constexpr std::uint64_t kMaxGridX = 0x7fffffff;  // beyond it the loops take the rest
        const bool looping = slot.kernel.residentGrid || vectorWidth == 1;
        const std::uint64_t limit = looping ? resident : kMaxGridX;
        return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(needed, limit)));
    }

    cudaError_t launch(const KernelSlot& slot, const KernelLaunch& launch) {
        // cudaLaunchKernel takes the address of each parameter: the buffer pointers, then N.
        std::array<void*, kMaxKernelArgs> pointers = launch.args;
        std::uint64_t n = launch.n;
        std::array<void*, kMaxKernelArgs + 1> parameters{};
        for (int a = 0; a < slot.kernel.pointerArgs; ++a) parameters[a] = &pointers[a];
        parameters[slot.kernel.pointerArgs] = &n;
        const dim3 grid(gridSize(slot, launch.vectorWidth, launch.n));
        const dim3 block(kCudaBlockSize);
        const cudaError_t error =
            cudaLaunchKernel(slot.kernel.function, grid, block, parameters.data(), 0, stream_);
        return error != cudaSuccess ? error : cudaGetLastError();
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

    Status synchronize(const std::string& action) {
        return cudaStatus(cudaStreamSynchronize(stream_), action);
    }

    static std::string kernelNames(const std::vector<const KernelSlot*>& slots) {
        std::string names;
        for (const KernelSlot* slot : slots)
            names += (names.empty() ? "" : ", ") + std::string(slot->kernel.name);
        return names;
    }

    DeviceInfo device_;  // everything but the free memory, read once
    int maxThreadsPerMultiprocessor_ = 1;
    cudaStream_t stream_ = nullptr;
    std::vector<cudaEvent_t> events_;
    std::array<std::array<KernelSlot, kSupportedVectorWidths.size()>, kKernelIdCount> kernels_{};
};

}  // namespace

Result<std::unique_ptr<Backend>> createCudaBackend() {
    return CudaBackend::create();
}

}  // namespace fusescope
