// Spec-sheet limits of a few GPUs, for model-only reports on machines without one. Shared memory
// and thread limits are the CUDA programming guide's per compute capability; bandwidth and peak
// throughput are the vendor's data-sheet numbers (dense, no sparsity), labelled as such.
#include <algorithm>
#include <cctype>

#include "tiles/tile_model.h"

namespace fusescope::tiles {
namespace {

struct KnownGpu {
    const char* key;
    DeviceLimits limits;
    double bf16Tflops;
    double fp32Tflops;
    double tf32Tflops;  // tensor cores, dense
};

DeviceLimits limits(const char* name, int major, int minor, int sms, int threadsPerSm,
                    int blocksPerSm, std::uint64_t sharedPerBlock, std::uint64_t sharedPerSm,
                    double gbps) {
    DeviceLimits l;
    l.name = name;
    l.computeCapabilityMajor = major;
    l.computeCapabilityMinor = minor;
    l.multiprocessors = sms;
    l.maxThreadsPerMultiprocessor = threadsPerSm;
    l.maxBlocksPerMultiprocessor = blocksPerSm;
    l.sharedBytesPerBlockOptIn = sharedPerBlock;
    l.sharedBytesPerMultiprocessor = sharedPerSm;
    l.reservedSharedBytesPerBlock = 1024;
    l.copyBandwidthGBps = gbps;
    l.copyBandwidthSource = "spec sheet";
    l.computeSource = "spec sheet";
    return l;
}

const std::vector<KnownGpu>& table() {
    static const std::vector<KnownGpu> gpus = {
        {"h200", limits("NVIDIA H200", 9, 0, 132, 2048, 32, 232448, 233472, 4800.0), 989.0, 67.0,
         494.5},
        {"h100", limits("NVIDIA H100 SXM", 9, 0, 132, 2048, 32, 232448, 233472, 3350.0), 989.0,
         67.0, 494.5},
        {"a100", limits("NVIDIA A100 80GB SXM", 8, 0, 108, 2048, 32, 166912, 167936, 2039.0), 312.0,
         19.5, 156.0},
        {"l4", limits("NVIDIA L4", 8, 9, 58, 1536, 24, 101376, 102400, 300.0), 121.0, 30.3, 60.0},
    };
    return gpus;
}

}  // namespace

std::vector<std::string> knownGpuKeys() {
    std::vector<std::string> keys;
    for (const KnownGpu& gpu : table()) keys.emplace_back(gpu.key);
    return keys;
}

std::optional<DeviceLimits> knownGpuLimits(std::string_view key, DType dtype) {
    std::string lower(key);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const KnownGpu& gpu : table()) {
        if (lower != gpu.key) continue;
        DeviceLimits l = gpu.limits;
        l.computeTflops = dtype == DType::Bfloat16 ? gpu.bf16Tflops
                          : dtype == DType::Tf32   ? gpu.tf32Tflops
                                                   : gpu.fp32Tflops;
        return l;
    }
    return std::nullopt;
}

}  // namespace fusescope::tiles
