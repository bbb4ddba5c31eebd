#include "runtime/backend.h"

#include <vector>

namespace fusescope {

const char* backendName(BackendKind kind) {
    return kind == BackendKind::Cuda ? "cuda" : "cpu";
}

Status checkCudaDevice(int deviceIndex) {
    const std::string which = "GPU " + std::to_string(deviceIndex);
    if (deviceIndex < 0)
        return Status(ErrorCode::InvalidArgument,
                      which + " is not a device: GPUs are numbered from 0");
    Result<std::vector<std::string>> names = cudaDeviceNames();
    if (!names)
        return Status(ErrorCode::DeviceUnavailable, which + ": " + names.status().message());
    const auto count = static_cast<int>(names->size());
    if (deviceIndex < count) return Status::ok();
    return Status(ErrorCode::DeviceUnavailable,
                  "there is no " + which + ": this host has " + std::to_string(count) +
                      (count == 1 ? " CUDA device, GPU 0"
                                  : " CUDA devices, GPU 0 to " + std::to_string(count - 1)));
}

Status Backend::copy(void* destination, const void* source, std::uint64_t bytes) {
    std::vector<unsigned char> staging(bytes);
    if (Status s = download(staging.data(), source, bytes); !s) return s;
    return upload(destination, staging.data(), bytes);
}

Result<double> Backend::timeChain(std::span<const KernelLaunch> launches) {
    Result<std::vector<double>> times = timeLaunches(launches, TimedStart::AllEnqueued);
    if (!times) return times.status();
    double sum = 0.0;
    for (const double time : *times) sum += time;
    return sum;
}

Result<std::vector<double>> Backend::timeRepeats(std::span<const KernelLaunch> launches,
                                                 int warmups, int repeats) {
    for (int i = 0; i < warmups; ++i)
        if (Result<double> time = timeChain(launches); !time) return time.status();
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        Result<double> time = timeChain(launches);
        if (!time) return time.status();
        times.push_back(*time);
    }
    return times;
}

}  // namespace fusescope
