#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "pipelines/registry.h"
#include "platform/cuda_error.h"
#include "platform/cuda_event_pair.h"
#include "runtime/learner_launch.h"

namespace fusescope {
namespace {

constexpr int kLearnerBlockSize = 256;

// The buffers of one run, freed whatever happens.
struct DeviceBuffers {
    std::vector<float*> pointers;
    ~DeviceBuffers() {
        for (float* pointer : pointers) cudaFree(pointer);
    }
};

// Waits for `done` with the time limit, asking `cancel`; a kernel past the limit is reported
// (the process is then ended by its caller: a running kernel cannot be stopped from the host).
Status waitFor(cudaEvent_t done, double limitSeconds, const CancelToken& cancel) {
    const auto began = std::chrono::steady_clock::now();
    for (;;) {
        const cudaError_t state = cudaEventQuery(done);
        if (state == cudaSuccess) return Status::ok();
        if (state != cudaErrorNotReady) return cudaStatus(state, "your kernel");
        if (cancel.cancelled()) return cancelledStatus();
        const double waited =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        if (waited > limitSeconds)
            return Status(ErrorCode::DeviceError,
                          "your kernel did not finish within " +
                              std::to_string(static_cast<int>(limitSeconds)) +
                              " s (an endless loop?); it was stopped");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

}  // namespace

std::string learnerArchitecture() {
    int device = 0;
    cudaDeviceProp properties{};
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
        cudaGetLastError();  // no GPU: compile for the H200's architecture
        return "sm_90";
    }
    return "sm_" + std::to_string(properties.major) + std::to_string(properties.minor);
}

Result<LearnerTiming> runLearnerKernel(LearnerLaunch& launch, const CancelToken& cancel) {
    LearnerTiming timing;
    const auto began = std::chrono::steady_clock::now();
    std::uint64_t inFlight = 0;
    const auto note = [&](const std::string& buffer, bool allocation, std::uint64_t size) {
        inFlight = allocation ? inFlight + size : inFlight - size;
        timing.allocations.push_back({buffer, allocation, size,
                                      std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now() - began)
                                          .count(),
                                      inFlight});
    };
    cudaLibrary_t library = nullptr;
    if (Status s = cudaStatus(cudaLibraryLoadData(&library, launch.cubin.data(), nullptr, nullptr,
                                                  0, nullptr, nullptr, 0),
                              "cudaLibraryLoadData (your kernel)");
        !s)
        return s;
    cudaKernel_t kernel = nullptr;
    if (Status s = cudaStatus(cudaLibraryGetKernel(&kernel, library, launch.entry.c_str()),
                              "finding the entry " + launch.entry + " (extern \"C\" __global__?)");
        !s)
        return s;
    const std::size_t bytes = launch.n * sizeof(float);
    DeviceBuffers buffers;
    for (const LearnerBufferData& buffer : launch.buffers) {
        float* pointer = nullptr;
        if (Status s = cudaStatus(cudaMalloc(&pointer, bytes), "cudaMalloc " + buffer.name); !s)
            return s;
        buffers.pointers.push_back(pointer);
        timing.peakBytesInFlight += bytes;
        note(buffer.name, true, bytes);
        const Status filled =
            buffer.input
                ? cudaStatus(
                      cudaMemcpy(pointer, buffer.values.data(), bytes, cudaMemcpyHostToDevice),
                      "copying " + buffer.name + " to the GPU")
                : cudaStatus(cudaMemset(pointer, kPoisonByte, bytes), "poisoning " + buffer.name);
        if (!filled) return filled;
    }
    int device = 0, multiprocessors = 0;
    if (Status s = cudaStatus(cudaGetDevice(&device), "cudaGetDevice"); !s) return s;
    if (Status s = cudaStatus(
            cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device),
            "multiprocessor count");
        !s)
        return s;
    timing.blockSize = kLearnerBlockSize;
    const std::uint64_t blocksForAll = (launch.n + kLearnerBlockSize - 1) / kLearnerBlockSize;
    timing.gridSize = static_cast<int>(
        std::min<std::uint64_t>(blocksForAll, static_cast<std::uint64_t>(multiprocessors) * 8));
    timing.gridSize = std::max(timing.gridSize, 1);
    int n = static_cast<int>(launch.n);
    std::vector<void*> arguments;
    for (float*& pointer : buffers.pointers) arguments.push_back(&pointer);
    arguments.push_back(&n);

    CudaEventPair events;
    if (Status s = events.create(); !s) return s;
    // One launch between the two events, waited for.
    const auto launchOnce = [&]() -> Status {
        if (Status s = cudaStatus(cudaEventRecord(events.start()), "cudaEventRecord"); !s) return s;
        if (Status s = cudaStatus(
                cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(timing.gridSize),
                                 dim3(timing.blockSize), arguments.data(), 0, nullptr),
                "launching your kernel");
            !s)
            return s;
        if (Status s = cudaStatus(cudaEventRecord(events.stop()), "cudaEventRecord"); !s) return s;
        if (Status s = waitFor(events.stop(), launch.timeLimitSeconds, cancel); !s) {
            launch.leftRunning = cudaEventQuery(events.stop()) == cudaErrorNotReady;
            // Freeing would wait for the kernel, which may never end: the buffers go with the
            // process.
            if (launch.leftRunning) buffers.pointers.clear();
            return s;
        }
        return Status::ok();
    };
    for (int k = 0; k < launch.settings.warmup + launch.settings.repeats; ++k) {
        if (Status s = launchOnce(); !s) return s;
        const Result<double> ms = events.elapsedMs();
        if (!ms) return ms.status();
        if (k >= launch.settings.warmup) timing.repeatTimesMs.push_back(*ms);
    }
    if (launch.afterTiming)
        if (Status s = launch.afterTiming(launchOnce); !s) return s;
    std::vector<double> sorted = timing.repeatTimesMs;
    std::sort(sorted.begin(), sorted.end());
    if (!sorted.empty()) timing.medianMs = sorted[sorted.size() / 2];
    for (std::size_t k = 0; k < launch.buffers.size(); ++k) {
        LearnerBufferData& buffer = launch.buffers[k];
        if (!buffer.copiedBack) continue;
        buffer.values.resize(launch.n);
        if (Status s = cudaStatus(cudaMemcpy(buffer.values.data(), buffers.pointers[k], bytes,
                                             cudaMemcpyDeviceToHost),
                                  "copying " + buffer.name + " back");
            !s)
            return s;
    }
    for (std::size_t k = buffers.pointers.size(); k-- > 0;) {
        if (Status s = cudaStatus(cudaFree(buffers.pointers[k]), "cudaFree"); !s) return s;
        buffers.pointers.pop_back();
        note(launch.buffers[k].name, false, bytes);
    }
    return timing;
}

}  // namespace fusescope
