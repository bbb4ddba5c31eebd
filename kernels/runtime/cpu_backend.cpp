// The CPU backend: the same pipelines, executed for real on the CPU, multithreaded and timed.
#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>

#include "pipelines/cpu_kernels.h"
#include "platform/parallel.h"
#include "runtime/backend.h"

namespace fusescope {
namespace {

// The value of the first "key : value" line of /proc/cpuinfo whose key starts with `key`.
std::string cpuinfoValue(const std::string& key) {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
        if (line.rfind(key, 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos && colon + 2 <= line.size())
                return line.substr(colon + 2);
        }
    return {};
}

std::string cpuModelName() {
    const std::string name = cpuinfoValue("model name");
    return name.empty() ? "CPU" : name;
}

std::uint64_t availableMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return static_cast<std::uint64_t>(sysconf(_SC_AVPHYS_PAGES)) * sysconf(_SC_PAGESIZE);
}

// The last-level cache plays the L2's role on the CPU: arrays smaller than it stay in cache.
std::uint64_t lastLevelCacheBytes() {
    for (int index = 4; index >= 0; --index) {
        std::ifstream size("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) +
                           "/size");
        std::string text;
        if (!(size >> text) || text.empty()) continue;
        std::uint64_t value = std::strtoull(text.c_str(), nullptr, 10);
        if (text.back() == 'K') value *= 1024;
        if (text.back() == 'M') value *= 1024 * 1024;
        return value;
    }
    // Machines without the cache in sysfs (some virtual ones) still give /proc/cpuinfo's "cache
    // size : 1024 KB", the largest cache the kernel knows of per core.
    const std::string cacheSize = cpuinfoValue("cache size");
    const std::uint64_t kib = std::strtoull(cacheSize.c_str(), nullptr, 10);
    return cacheSize.find("KB") != std::string::npos ? kib * 1024 : 0;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

class CpuBackend final : public Backend {
  public:
    CpuBackend(int threads, CpuInstructionSet instructionSet)
        : threads_(threads > 0 ? threads : hardwareThreads()), instructionSet_(instructionSet) {}

    BackendKind kind() const override { return BackendKind::Cpu; }

    DeviceInfo describe() const override {
        DeviceInfo info;
        info.backend = BackendKind::Cpu;
        info.name = cpuModelName();
        info.multiprocessors = threads_;
        info.runtimeVersion = std::string(cpuInstructionSetName(instructionSet_));
        info.memoryName = "memory (RAM)";
        info.processorsName = "CPU cores";
        info.l2CacheBytes = lastLevelCacheBytes();
        info.totalMemoryBytes =
            static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
        // Host inputs and the reference check need host copies too: count half as usable.
        info.freeMemoryBytes = availableMemoryBytes() / 2;
        return info;
    }

    Result<void*> allocate(std::uint64_t bytes) override {
        constexpr std::uint64_t kAlignment = 64;
        const std::uint64_t rounded =
            (std::max<std::uint64_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
        void* pointer = std::aligned_alloc(kAlignment, rounded);
        if (!pointer)
            return Status(ErrorCode::OutOfMemory,
                          "out of host memory for " + std::to_string(bytes) + " bytes");
        return pointer;
    }
    Status release(void* pointer) override {
        std::free(pointer);
        return Status::ok();
    }
    Status upload(void* device, const void* host, std::uint64_t bytes) override {
        return parallelCopy(device, host, bytes);
    }
    Status download(void* host, const void* device, std::uint64_t bytes) override {
        return parallelCopy(host, device, bytes);
    }
    Status copy(void* destination, const void* source, std::uint64_t bytes) override {
        return parallelCopy(destination, source, bytes);
    }
    Status fill(void* device, unsigned char byte, std::uint64_t bytes) override {
        auto* base = static_cast<unsigned char*>(device);
        if (!parallelFor(bytes, threads_, cancel_, 1, [&](std::uint64_t begin, std::uint64_t end) {
                std::memset(base + begin, byte, end - begin);
            }))
            return cancelledStatus();
        return Status::ok();
    }

    Result<std::vector<double>> timeLaunches(std::span<const KernelLaunch> launches,
                                             TimedStart) override {
        std::vector<double> times;
        const ExecutionTarget where = target();
        for (const KernelLaunch& launch : launches) {
            const auto start = std::chrono::steady_clock::now();
            if (Status s = launch.execution->enqueue(where, launch.call); !s) return s;
            times.push_back(millisecondsSince(start));
        }
        return times;
    }

    Result<double> timeCopy(void* destination, const void* source, std::uint64_t bytes) override {
        const auto start = std::chrono::steady_clock::now();
        if (Status s = parallelCopy(destination, source, bytes); !s) return s;
        return millisecondsSince(start);
    }

    Result<KernelExecution*> findExecution(std::string_view key) override {
        return findExecutionIn(catalog_, key, BackendKind::Cpu);
    }

    KernelResources resources(const KernelLaunch&) override { return {}; }
    Status supports(const KernelLaunch& launch) override {
        return launch.execution->supports(target(), launch.call);
    }

    void useHostThreads(int threads) override {
        threads_ = threads > 0 ? threads : hardwareThreads();
    }
    void useCancelToken(CancelToken cancel) override { cancel_ = std::move(cancel); }

  private:
    ExecutionTarget target() {
        ExecutionTarget where;
        where.backend = BackendKind::Cpu;
        where.hostThreads = threads_;
        where.instructionSet = instructionSet_;
        where.multiprocessors = threads_;
        where.state = &state_;
        where.cancel = cancel_;
        return where;
    }

    Status parallelCopy(void* destination, const void* source, std::uint64_t bytes) const {
        auto* to = static_cast<unsigned char*>(destination);
        const auto* from = static_cast<const unsigned char*>(source);
        // Split by 4-byte elements, as the kernels are split, so that the copy roofline goes
        // multi-threaded at the same N as the kernels it is compared with.
        constexpr std::uint64_t kSplitBytes = 4;
        const std::uint64_t elements = bytes / kSplitBytes;
        if (elements == 0) {  // no block to carry the tail
            std::memcpy(to, from, bytes);
            return Status::ok();
        }
        const bool copied = parallelFor(
            elements, threads_, cancel_, 1, [&](std::uint64_t begin, std::uint64_t end) {
                const std::uint64_t first = begin * kSplitBytes;
                const std::uint64_t last = end == elements ? bytes : end * kSplitBytes;
                std::memcpy(to + first, from + first, last - first);
            });
        return copied ? Status::ok() : cancelledStatus();
    }

    int threads_;
    CpuInstructionSet instructionSet_;
    ExecutionCatalog catalog_ = makeCpuExecutions();
    ExecutionState state_;
    CancelToken cancel_;
};

}  // namespace

std::unique_ptr<Backend> createCpuBackend(int threads) {
    return std::make_unique<CpuBackend>(threads, bestCpuInstructionSet());
}

std::unique_ptr<Backend> createCpuBackend(int threads, CpuInstructionSet instructionSet) {
    return std::make_unique<CpuBackend>(threads, instructionSet);
}

}  // namespace fusescope
